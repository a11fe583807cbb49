import { type KeyboardEvent, useRef } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

/**
 * WAI-ARIA tabs: one tab stop, arrows (and Home/End) move between tabs and select them.
 * The panel is the caller's, with id `${idPrefix}-panel`.
 */
export function TabList<T extends string>(props: {
  idPrefix: string;
  items: readonly TabItem<NoInfer<T>>[];
  selected: T;
  onSelect(id: T): void;
}) {
  const { idPrefix, items, selected, onSelect } = props;
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = items.findIndex((item) => item.id === selected);
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? at === last
          ? 0
          : at + 1
        : event.key === 'ArrowLeft'
          ? at === 0
            ? last
            : at - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const id = items[next]!.id;
    onSelect(id);
    refs.current.get(id)?.focus();
  };
  return (
    <div className="tabs" role="tablist" onKeyDown={onKeyDown}>
      {items.map((item) => (
        <button
          key={item.id}
          ref={(element) => {
            if (element) refs.current.set(item.id, element);
            else refs.current.delete(item.id);
          }}
          type="button"
          role="tab"
          className="tab"
          id={`${idPrefix}-tab-${item.id}`}
          aria-selected={selected === item.id}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={selected === item.id ? 0 : -1}
          onClick={() => onSelect(item.id)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
