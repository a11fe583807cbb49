import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TabList } from './tab-list.js';

afterEach(cleanup);

function Harness() {
  const [tab, setTab] = useState<'a' | 'b' | 'c'>('a');
  return (
    <TabList<'a' | 'b' | 'c'>
      idPrefix="t"
      items={[
        { id: 'a', label: 'Alpha' },
        { id: 'b', label: 'Beta' },
        { id: 'c', label: 'Gamma' },
      ]}
      selected={tab}
      onSelect={setTab}
    />
  );
}

describe('TabList', () => {
  it('is one tab stop; arrows, Home and End move the selection and the focus', () => {
    render(<Harness />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    expect(tab('Alpha').tabIndex).toBe(0);
    expect(tab('Beta').tabIndex).toBe(-1);
    fireEvent.keyDown(tab('Alpha'), { key: 'ArrowRight' });
    expect(tab('Beta').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Beta'));
    fireEvent.keyDown(tab('Beta'), { key: 'End' });
    expect(tab('Gamma').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('Gamma'), { key: 'ArrowRight' });
    expect(tab('Alpha').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('Alpha'), { key: 'ArrowLeft' });
    expect(tab('Gamma').getAttribute('aria-selected')).toBe('true');
  });
});
