import { useState } from 'react';
import type { CustomAttribute, ImportJob } from '@console/shared/contracts';
import { MappingStep } from './mapping-step';
import { UploadStep } from './upload-step';

type WizardState = { step: 'upload' } | { step: 'map'; file: File; rows: string[][]; seq: number };

const STEPS = ['Upload', 'Map columns'] as const;

/** Upload a CSV file, then map its columns and start the import. */
export function ImportWizard({
  attributes,
  onStarted,
}: {
  attributes: readonly CustomAttribute[];
  onStarted: (job: ImportJob) => void;
}) {
  const [state, setState] = useState<WizardState>({ step: 'upload' });
  const current = state.step === 'upload' ? 0 : 1;
  return (
    <div className="space-y-4">
      <ol className="flex gap-6 text-sm" aria-label="Import steps">
        {STEPS.map((label, index) => (
          <li
            key={label}
            aria-current={index === current ? 'step' : undefined}
            className={index === current ? 'font-semibold text-brand-700' : 'text-slate-500'}
          >
            {index + 1}. {label}
          </li>
        ))}
      </ol>
      {state.step === 'upload' ? (
        <UploadStep onLoaded={(file, rows) => setState({ step: 'map', file, rows, seq: Date.now() })} />
      ) : (
        <MappingStep
          key={state.seq}
          file={state.file}
          rows={state.rows}
          attributes={attributes}
          onBack={() => setState({ step: 'upload' })}
          onStarted={onStarted}
        />
      )}
    </div>
  );
}
