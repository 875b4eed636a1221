// The only bridge between the sandboxed page and Plumb: window.plumb, two methods, one channel each.
import { contextBridge, ipcRenderer } from 'electron';
import { ipcChannels } from '../contract/channels.js';
import type { PlumbBridge, Reply } from '../contract/index.js';

const bridge: PlumbBridge = {
  transport: 'electron',
  invoke: (name, input) => ipcRenderer.invoke(ipcChannels.call, name, input) as Promise<Reply>,
  on(name, listener) {
    const handler = (_event: unknown, eventName: unknown, payload: unknown) => {
      if (eventName === name) listener(payload);
    };
    ipcRenderer.on(ipcChannels.event, handler);
    return () => ipcRenderer.removeListener(ipcChannels.event, handler);
  },
};

contextBridge.exposeInMainWorld('plumb', bridge);
