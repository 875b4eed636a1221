/**
 * "Export PDF": the desktop app prints in a hidden window and asks where to save; in a browser,
 * `plumb serve` prints with the system Chrome or Chromium and the PDF downloads.
 */
import { useState } from 'react';
import type { ReportRequestInput } from '../../../app/contract/report.js';
import type { PlumbClient } from '../client.js';
import { saveTextFile } from '../ui/download.js';
import { paperForLocale } from './paper.js';

function bytesOfBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = window.atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

type State =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'saved'; path: string }
  | { kind: 'error'; message: string };

export function ExportPdfButton({
  client,
  request,
  className = 'button button-small',
}: {
  client: PlumbClient;
  request: ReportRequestInput;
  className?: string;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const exportPdf = async () => {
    setState({ kind: 'busy' });
    const input = { request, paper: paperForLocale(window.navigator.language) };
    try {
      if (client.transport === 'electron') {
        const { path } = await client.call('report.savePdf', input);
        setState(path ? { kind: 'saved', path } : { kind: 'idle' });
      } else {
        const { fileName, pdfBase64 } = await client.call('report.pdf', input);
        saveTextFile(fileName, bytesOfBase64(pdfBase64), 'application/pdf');
        setState({ kind: 'idle' });
      }
    } catch (error) {
      setState({ kind: 'error', message: (error as Error).message });
    }
  };
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => void exportPdf()}
        disabled={state.kind === 'busy'}
        aria-busy={state.kind === 'busy'}
      >
        {state.kind === 'busy' ? 'Making the PDF…' : 'Export PDF'}
      </button>
      {state.kind === 'saved' ? (
        <span className="export-note" role="status">
          Saved to {state.path}
        </span>
      ) : null}
      {state.kind === 'error' ? (
        <p className="inline-error" role="alert">
          {state.message}
        </p>
      ) : null}
    </>
  );
}
