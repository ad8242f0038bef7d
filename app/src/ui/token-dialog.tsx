/** Asks for the dashboard token when a change is refused for the lack of it; kept in local storage. */
import { component$, useSignal } from '@builder.io/qwik';
import type { Props } from './props';

export const TokenDialog = component$(({ ui, ctrl }: Props) => {
  const token = useSignal('');
  return (
    <div class="modal" data-testid="token-dialog" role="dialog" aria-modal="true" aria-label="Dashboard token">
      <form
        preventdefault:submit
        onSubmit$={() => {
          const t = token.value;
          token.value = '';
          void ctrl.value?.submitToken(t);
        }}
      >
        <p data-testid="token-message">{ui.tokenMessage}</p>
        <input data-testid="token-input" type="password" autoFocus autocomplete="off" placeholder="dashboard token" aria-label="Dashboard token" bind:value={token} />
        <div class="actions">
          <button type="button" onClick$={() => ctrl.value?.cancelToken()}>
            Cancel
          </button>
          <button class="primary" data-testid="token-submit" type="submit" disabled={token.value.trim() === ''}>
            Use token
          </button>
        </div>
      </form>
    </div>
  );
});
