// The file every pool worker thread loads first (see pool.ts). piscina require()s its task file, and on
// Node >= 20.19 require() of an ES module that is terminated while it is being instantiated (a pool closed
// while a worker was still starting, e.g. Ctrl-C in the service's first second) aborts the whole process:
// "FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module". This file is CommonJS, so
// require() never takes that path; it loads the real worker (an ES module) with import(), which a terminate
// interrupts safely. Tasks that arrive before the import finishes wait for it.
'use strict';
const { workerData } = require('piscina');

const loading = import(workerData.__entry).then((mod) => mod.default);
// A failed import fails each task with its error (the pool reports MEM_ERR_ACTOR_CRASHED); not unhandled.
loading.catch(() => undefined);

module.exports = async function run(task) {
  const handler = await loading;
  return handler(task);
};
