/** Worker side of a pool actor: turn a handler table into piscina's task function. */
import { dispatch, type Call, type Envelope, type Handlers } from './envelope.js';

export function poolWorker(handlers: Handlers): (call: Call) => Promise<Envelope<unknown>> {
  return (call) => dispatch(handlers, call);
}
