import { render } from '@builder.io/qwik';
// The Qwik package marks itself side-effect free, so a bare `import '@builder.io/qwik/qwikloader.js'` is
// dropped by the bundler; the loader (it dispatches on:click and friends to lazy chunks) is added as a script.
import qwikloader from '@builder.io/qwik/qwikloader.js?raw';
import { App } from './app';

const loader = document.createElement('script');
loader.textContent = qwikloader;
document.head.appendChild(loader);
render(document.getElementById('app') as HTMLElement, <App />);
