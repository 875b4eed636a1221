import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidateName, trashInfo, trashInfoPath } from '../../../app/core/space/trash-can.js';

test('names tried in a Trash keep the extension and never repeat', () => {
  assert.deepEqual(
    [1, 2, 3].map((n) => candidateName('photo.raw', n)),
    ['photo.raw', 'photo.2.raw', 'photo.3.raw'],
  );
  assert.equal(candidateName('Makefile', 2), 'Makefile.2');
  assert.equal(candidateName('.bashrc', 2), '.bashrc.2');
  assert.equal(candidateName('archive.tar.gz', 2), 'archive.tar.2.gz');
});

test('.trashinfo: Path= escaped per segment, relative in a volume trash, local DeletionDate', () => {
  assert.equal(trashInfoPath('/home/me/a b/100%/é.txt'), '/home/me/a%20b/100%25/%C3%A9.txt');
  const when = new Date(2026, 0, 2, 3, 4, 5);
  assert.equal(
    trashInfo(
      '/mnt/usb/docs/x y.pdf',
      { kind: 'xdg-volume', dir: '/mnt/usb/.Trash-1000' },
      '/mnt/usb',
      when,
    ),
    '[Trash Info]\nPath=docs/x%20y.pdf\nDeletionDate=2026-01-02T03:04:05\n',
  );
  assert.equal(
    trashInfo(
      '/home/me/x.pdf',
      { kind: 'xdg-home', dir: '/home/me/.local/share/Trash' },
      '/',
      when,
    ),
    '[Trash Info]\nPath=/home/me/x.pdf\nDeletionDate=2026-01-02T03:04:05\n',
  );
});
