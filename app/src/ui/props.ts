import type { NoSerialize, Signal } from '@builder.io/qwik';
import type { Controller, UiState } from '../lib/controller';

export interface Props {
  ui: UiState;
  ctrl: Signal<NoSerialize<Controller>>;
}
