/** IPC channel names for the Electron adapter: the only channel strings in the project. */
export const ipcChannels = { call: 'plumb:call', event: 'plumb:event' } as const;
