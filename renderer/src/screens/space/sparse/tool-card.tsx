/** What the three sparse-file tools share: one card form, its labelled fields and its outcome. */
import { useId, useState, type ReactNode } from 'react';

/**
 * A tool's busy flag, outcome sentence and error: `act` runs the call with the button disabled
 * and shows the sentence it returns (null clears it), or the error's message in its place.
 */
export function useToolAction() {
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    try {
      setText(await work());
    } catch (cause) {
      setError((cause as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, text, error, fail: setError, act };
}

/** A tool as a card: its title (also the form's name), what it does, its fields and outcome. */
export function ToolCard({
  title,
  description,
  onSubmit,
  text,
  error,
  children,
}: {
  title: string;
  description: string;
  onSubmit: () => void;
  text: string | null;
  error: string | null;
  children: ReactNode;
}) {
  return (
    <form
      className="card sparse-tool"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      aria-label={title}
    >
      <h3 className="sparse-tool-title">{title}</h3>
      <p className="muted">{description}</p>
      {children}
      <Outcome text={text} error={error} />
    </form>
  );
}

/** A labelled text field; a path field turns spelling checks and autocomplete off. */
export function ToolField({
  label,
  value,
  onChange,
  placeholder,
  path = true,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  path?: boolean;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="path-input"
        {...(path ? { spellCheck: false, autoComplete: 'off' } : {})}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}

function Outcome({ text, error }: { text: string | null; error: string | null }) {
  if (error)
    return (
      <p className="inline-error" role="alert">
        {error}
      </p>
    );
  return text ? (
    <p className="sparse-result" role="status">
      {text}
    </p>
  ) : null;
}
