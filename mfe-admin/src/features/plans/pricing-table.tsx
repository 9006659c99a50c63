import { TextField } from '@console/shared/ui';
import { BILLING_PERIODS, PERIOD_LABELS, PLAN_EDIT_LIMITS, type BillingPeriod } from '@console/shared/contracts';
import { PERIOD_WORDS, perMonthHint, type FieldMessages, type OptionValues } from './plan-form';

const PRICE_MAX_LENGTH = 12;
const EMAILS_MAX_LENGTH = 13;

/**
 * The five pricing options of a plan: e-mails and, per period, the price for the whole period (with
 * its price per month beside six-month and yearly prices) and the payment provider's price id.
 */
export function PricingTable({
  planName,
  pricing,
  onChange,
  errors,
  disabled,
}: {
  planName: string;
  pricing: readonly OptionValues[];
  onChange: (pricing: OptionValues[]) => void;
  errors: FieldMessages;
  disabled: boolean;
}) {
  const update = (index: number, change: (option: OptionValues) => OptionValues) =>
    onChange(pricing.map((option, i) => (i === index ? change(option) : option)));
  const setVariant = (index: number, period: BillingPeriod, field: 'price' | 'id', value: string) =>
    update(index, (option) => ({ ...option, [period]: { ...option[period], [field]: value } }));

  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{planName} pricing options</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-2 py-2">
              Option
            </th>
            <th scope="col" className="px-2 py-2">
              E-mails
            </th>
            {BILLING_PERIODS.map((period) => (
              <th key={period} scope="col" className="px-2 py-2">
                {PERIOD_LABELS[period]} <span className="font-normal normal-case">(USD, price id)</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {pricing.map((option, index) => {
            const name = `${planName} option ${index + 1}`;
            return (
              <tr key={option.key} className="align-top">
                <th scope="row" className="px-2 py-3 font-mono text-xs font-medium text-slate-700">
                  {option.key}
                </th>
                <td className="px-2 py-2">
                  <TextField
                    label={`${name} e-mails`}
                    hideLabel
                    containerClassName="w-28"
                    inputMode="numeric"
                    maxLength={EMAILS_MAX_LENGTH}
                    value={option.emails}
                    disabled={disabled}
                    error={errors[`pricing.${index}.emails`]}
                    onChange={(event) => update(index, (o) => ({ ...o, emails: event.target.value }))}
                  />
                </td>
                {BILLING_PERIODS.map((period) => (
                  <td key={period} className="space-y-2 px-2 py-2">
                    <TextField
                      label={`${name} ${PERIOD_WORDS[period]} price`}
                      hideLabel
                      containerClassName="w-28"
                      inputMode="decimal"
                      maxLength={PRICE_MAX_LENGTH}
                      value={option[period].price}
                      disabled={disabled}
                      hint={perMonthHint(option[period].price, period)}
                      error={errors[`pricing.${index}.${period}.price`]}
                      onChange={(event) => setVariant(index, period, 'price', event.target.value)}
                    />
                    <TextField
                      label={`${name} ${PERIOD_WORDS[period]} price id`}
                      hideLabel
                      containerClassName="w-48"
                      className="text-xs"
                      autoComplete="off"
                      spellCheck={false}
                      maxLength={PLAN_EDIT_LIMITS.priceIdMax}
                      value={option[period].id}
                      disabled={disabled}
                      error={errors[`pricing.${index}.${period}.id`]}
                      onChange={(event) => setVariant(index, period, 'id', event.target.value)}
                    />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
