import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createWebBridge } from './bridge/web.ts';
import { setApi } from './api.ts';
import { apiOver } from '../preload/ipc-contract.ts';
import { DialogProvider } from './components/Dialog.tsx';
import { DatabaseGate } from './views/DatabaseRecovery.tsx';

// Electron's preload provides window.messengerBridge (one call → its envelope); in a browser we
// call over the WebSocket. Either way apiOver (preload/ipc-contract.ts) builds window.messenger.
if (window.messengerBridge && window.messengerEvents) {
  const api = apiOver(window.messengerBridge.invoke);
  window.messenger = api;
  setApi(api, window.messengerEvents, null);
} else {
  const bridge = createWebBridge();
  window.messenger = bridge.api;
  window.messengerEvents = bridge.events;
  setApi(bridge.api, bridge.events, bridge);
  // The one-time token is spent once the WebSocket has exchanged it for this tab's session (main/web.ts):
  // keep it out of the address bar and history.
  const url = new URL(window.location.href);
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <DialogProvider>
      <DatabaseGate>
        <App />
      </DatabaseGate>
    </DialogProvider>,
  );
