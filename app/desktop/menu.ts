/** The native menu, by platform: the usual roles, so shortcuts behave as users expect. */
export interface MenuItem {
  label?: string;
  role?: string;
  type?: 'separator';
  submenu?: MenuItem[];
}

export function menuTemplate(platform: NodeJS.Platform, appName: string): MenuItem[] {
  const isMac = platform === 'darwin';
  const template: MenuItem[] = [];
  if (isMac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    { label: 'File', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] },
    { label: 'Edit', role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: 'Window', role: 'windowMenu' },
  );
  return template;
}
