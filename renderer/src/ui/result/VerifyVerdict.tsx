/** The verdict of `--verify` (every file read back, every 4 KiB block checked) on a result page. */
import type { VerifySection } from '../../../../app/contract/bench-result.js';
import { formatBytes } from '../../../../app/common/format.js';

export function VerifyVerdict({ section, id }: { section: VerifySection; id: string }) {
  const passed = section.verdict === 'passed';
  return (
    <section className="verdict-section" aria-labelledby={`${id}-verify`}>
      <h3 id={`${id}-verify`} className="section-title">
        Capacity check
      </h3>
      <div
        className={`finding finding-${passed ? 'good' : 'warning'}`}
        data-testid="verify-verdict"
      >
        <span className="finding-mark" aria-hidden="true" />
        <div>
          <strong className="finding-title">
            {passed
              ? `All ${formatBytes(section.bytesChecked)} read back as written`
              : `${formatBytes(section.badBytes)} did not come back as written`}
          </strong>
          <p className="finding-sentence">{section.message}</p>
        </div>
      </div>
    </section>
  );
}
