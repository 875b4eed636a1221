import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserCandidates, findBrowser } from '../../../app/core/report/browser.js';

const search = (platform: NodeJS.Platform, present: string[], env: NodeJS.ProcessEnv = {}) => ({
  platform,
  env,
  isFile: (file: string) => present.includes(file),
});

describe('findBrowser', () => {
  it('finds Chromium or Chrome where Linux distributions put them, then on PATH', () => {
    assert.equal(
      findBrowser(undefined, search('linux', ['/usr/bin/chromium'])),
      '/usr/bin/chromium',
    );
    assert.equal(
      findBrowser(undefined, search('linux', ['/usr/bin/google-chrome-stable'])),
      '/usr/bin/google-chrome-stable',
    );
    assert.equal(
      findBrowser(undefined, search('linux', ['/opt/bin/chromium'], { PATH: '/opt/bin:relative' })),
      '/opt/bin/chromium',
    );
    assert.ok(!browserCandidates('linux', { PATH: 'relative' }).includes('relative/chromium'));
  });

  it('finds Chrome, Chromium or Edge in the Applications folders on macOS', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    assert.equal(findBrowser(undefined, search('darwin', [chrome])), chrome);
    const edge = '/Users/me/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    assert.equal(findBrowser(undefined, search('darwin', [edge], { HOME: '/Users/me' })), edge);
  });

  it('finds Chrome or Edge under Program Files on Windows', () => {
    const env = {
      ProgramFiles: 'C:\\Program Files',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
    };
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    assert.equal(findBrowser(undefined, search('win32', [edge], env)), edge);
    const chrome = 'C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    assert.equal(findBrowser(undefined, search('win32', [chrome, edge], env)), edge);
    assert.equal(findBrowser(undefined, search('win32', [chrome], env)), chrome);
  });

  it('uses the browser the user names, or says there is none at that path', () => {
    assert.equal(
      findBrowser('/my/chrome', search('linux', ['/my/chrome', '/usr/bin/chromium'])),
      '/my/chrome',
    );
    assert.equal(
      findBrowser(undefined, search('linux', ['/env/chrome'], { PLUMB_BROWSER: '/env/chrome' })),
      '/env/chrome',
    );
    assert.throws(
      () => findBrowser('/no/chrome', search('linux', ['/usr/bin/chromium'])),
      (error: Error & { code?: string }) =>
        error.code === 'ENOBROWSER' && /No browser at \/no\/chrome/.test(error.message),
    );
  });

  it('says what to install, per system, when none is found', () => {
    const cases: [NodeJS.Platform, RegExp][] = [
      ['linux', /Install Chromium \(Debian\/Ubuntu: `sudo apt install chromium`/],
      ['darwin', /Install Google Chrome/],
      ['win32', /Install Google Chrome or Microsoft Edge/],
    ];
    for (const [platform, hint] of cases) {
      assert.throws(
        () => findBrowser(undefined, search(platform, [])),
        (error: Error & { code?: string }) =>
          error.code === 'ENOBROWSER' &&
          hint.test(error.message) &&
          /--browser PATH/.test(error.message) &&
          !error.message.includes('\n'),
        platform,
      );
    }
  });
});
