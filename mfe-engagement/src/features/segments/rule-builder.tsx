import { useMemo } from 'react';
import {
  QueryBuilder,
  type ActionProps,
  type Classnames,
  type RuleGroupType,
  type Translations,
} from 'react-querybuilder';
import { ATTRIBUTE_FIELD_PREFIX, ONCHAIN_FIELD_PREFIX, type List, type SegmentField } from '@console/shared/contracts';
import { BuilderOptionsContext, type BuilderOptions } from './builder-options';
import { defaultRuleValue, operatorOptions } from './operators';
import { INPUT_CLASS } from './input-class';
import { SegmentValueEditor } from './value-editor';

const SELECT = `${INPUT_CLASS} pr-8`;
const ACTION =
  'inline-flex items-center rounded-control bg-white px-2.5 py-1 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';
const REMOVE =
  'ml-auto inline-flex h-7 w-7 items-center justify-center rounded-control text-lg leading-none text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600';

/** Tailwind classes for react-querybuilder's controls (its own CSS file is not loaded). */
const CLASSNAMES: Partial<Classnames> = {
  queryBuilder: 'text-sm',
  ruleGroup: 'space-y-3 rounded-panel border border-slate-200 bg-slate-50 p-3',
  header: 'flex flex-wrap items-center gap-2',
  body: 'space-y-2 border-l-2 border-brand-200 pl-3 empty:hidden',
  combinators: SELECT,
  addRule: ACTION,
  addGroup: ACTION,
  removeGroup: REMOVE,
  rule: 'flex flex-wrap items-center gap-2 rounded-control bg-white p-2 ring-1 ring-slate-200',
  fields: SELECT,
  operators: SELECT,
  removeRule: REMOVE,
};

const TRANSLATIONS: Partial<Translations> = {
  fields: { title: 'Field' },
  operators: { title: 'Operator' },
  value: { title: 'Value' },
  combinators: { title: 'Match' },
  addRule: { label: 'Add rule', title: 'Add rule' },
  addGroup: { label: 'Add group', title: 'Add group' },
  removeRule: { label: '×', title: 'Remove rule' },
  removeGroup: { label: '×', title: 'Remove group' },
};

const COMBINATORS = [
  { name: 'and', label: 'All of these (AND)' },
  { name: 'or', label: 'Any of these (OR)' },
];

/** Buttons named by their title, so '×' reads 'Remove rule'. */
function SegmentAction({ label, title, className, disabled, handleOnClick }: ActionProps) {
  return (
    <button
      type="button"
      aria-label={title}
      title={title}
      className={className}
      disabled={disabled}
      onClick={(event) => handleOnClick(event)}
    >
      {label}
    </button>
  );
}

const CONTROLS = { valueEditor: SegmentValueEditor, actionElement: SegmentAction };

/**
 * react-querybuilder over the tenant's allowlist: each field offers only its kind's operators
 * (OPERATORS_BY_KIND) with plain-English labels and a value editor fit for the kind.
 */
export function RuleBuilder({
  fields,
  lists,
  query,
  onQueryChange,
}: {
  fields: readonly SegmentField[];
  lists: readonly List[];
  query: RuleGroupType;
  onQueryChange: (query: RuleGroupType) => void;
}) {
  const options = useMemo<BuilderOptions>(
    () => ({
      fields: new Map(fields.map((field) => [field.name, field])),
      lists: lists.map((list) => ({ value: list._id, label: list.name })),
    }),
    [fields, lists],
  );
  const fieldGroups = useMemo(() => {
    const option = (field: SegmentField) => ({ name: field.name, label: field.label });
    const attributes = fields.filter((field) => field.name.startsWith(ATTRIBUTE_FIELD_PREFIX));
    const onchain = fields.filter((field) => field.name.startsWith(ONCHAIN_FIELD_PREFIX));
    const contact = fields.filter((field) => !attributes.includes(field) && !onchain.includes(field));
    return [
      { label: 'Contact', options: contact.map(option) },
      ...(attributes.length > 0 ? [{ label: 'Custom attributes', options: attributes.map(option) }] : []),
      ...(onchain.length > 0 ? [{ label: 'On chain', options: onchain.map(option) }] : []),
    ];
  }, [fields]);

  return (
    <BuilderOptionsContext.Provider value={options}>
      <QueryBuilder
        fields={fieldGroups}
        query={query}
        onQueryChange={onQueryChange}
        getOperators={(field) => {
          const definition = options.fields.get(field);
          return definition ? operatorOptions(definition.kind, definition.name) : [];
        }}
        getDefaultValue={(rule) => {
          const definition = options.fields.get(rule.field);
          return definition ? defaultRuleValue(definition.kind, rule.operator, definition.values) : '';
        }}
        combinators={COMBINATORS}
        controlElements={CONTROLS}
        controlClassnames={CLASSNAMES}
        translations={TRANSLATIONS}
        resetOnOperatorChange
        addRuleToNewGroups
        listsAsArrays
        suppressStandardClassnames
        enableMountQueryChange={false}
      />
    </BuilderOptionsContext.Provider>
  );
}
