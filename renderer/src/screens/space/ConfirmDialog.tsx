/** A modal confirmation (native <dialog>: focus kept inside, Escape cancels). */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy,
  confirmDisabled = false,
  progress,
  onStop,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy: boolean;
  confirmDisabled?: boolean;
  /** Shown while busy: how far the work has got. */
  progress?: ReactNode;
  /** While busy, Cancel stops the work with this (null once asked); without it, Cancel waits. */
  onStop?: (() => void) | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const stoppable = busy && onStop !== undefined;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="space-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId} className="space-dialog-title">
        {title}
      </h2>
      <div className="space-dialog-body">{children}</div>
      {busy && progress ? <div className="space-dialog-progress">{progress}</div> : null}
      <div className="space-dialog-actions">
        <button
          type="button"
          className="button"
          onClick={stoppable ? (onStop ?? undefined) : onCancel}
          disabled={stoppable ? onStop === null : busy}
          autoFocus
        >
          {stoppable && onStop === null ? 'Cancelling…' : 'Cancel'}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={onConfirm}
          disabled={busy || confirmDisabled}
        >
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
