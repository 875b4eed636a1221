// Electron entry point: hands the real Electron module to the testable desktop app.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import electron from 'electron';
import { startDesktop, type ElectronLike } from './app.js';

const here = path.dirname(fileURLToPath(import.meta.url));
startDesktop(electron as unknown as ElectronLike, path.join(here, 'preload.cjs'));
