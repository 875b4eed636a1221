/** One numbered step of the test setup. */
import type { ReactNode } from 'react';

export function SetupStep({
  id,
  number,
  title,
  children,
}: {
  id: string;
  number: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="setup-step" aria-labelledby={id}>
      <h2 id={id} className="step-title">
        <span className="step-number" aria-hidden="true">
          {number}
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}
