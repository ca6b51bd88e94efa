import { beforeEach, describe, expect, it } from 'vitest';
import { encodeStateToHash } from './language/urlState.js';
import { initialState, loadDraft, loadSavedBreakpoints, loadSavedSpell, saveState } from './persistence.js';

/** localStorage as the page has it (Node has none). */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
}

const EXAMPLE = 'print "example";\n';
const isUserWork = (s: string) => s.trim() !== '' && s !== EXAMPLE;
const fallback = { source: EXAMPLE };

describe('initialState', () => {
  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });

  it('reopens the edits made after Share, not the older text of the link they came from', () => {
    const link = encodeStateToHash({ source: 'print "v1";\n' });
    saveState({ source: 'print "v1";\nprint "newer";\n' }, link);
    expect(initialState(link, fallback, isUserWork)).toEqual({ state: { source: 'print "v1";\nprint "newer";\n' }, from: 'autosave', keptDraft: false });
  });

  it("opens another link, keeping the user's own work as the draft", () => {
    saveState({ source: 'print "mine";\n' }, '');
    const link = encodeStateToHash({ source: 'print "theirs";\n' });
    expect(initialState(link, fallback, isUserWork)).toMatchObject({ state: { source: 'print "theirs";\n' }, from: 'link', keptDraft: true });
    expect(loadDraft()?.source).toBe('print "mine";\n');
  });

  it('keeps no draft of an unchanged example, nor of the very text the link holds', () => {
    saveState({ source: EXAMPLE }, '');
    expect(initialState(encodeStateToHash({ source: 'print 1;' }), fallback, isUserWork).keptDraft).toBe(false);
    saveState({ source: 'print 1;' }, '');
    expect(initialState(encodeStateToHash({ source: 'print 1;' }), fallback, isUserWork).keptDraft).toBe(false);
    expect(loadDraft()).toBeNull();
  });

  it('falls back to the autosave, then the default; survives garbage in storage', () => {
    expect(initialState('', fallback, isUserWork)).toMatchObject({ state: fallback, from: 'default' });
    localStorage.setItem('cantrip.playground.v1', '{not json');
    expect(initialState('', fallback, isUserWork).from).toBe('default');
    saveState({ source: 'print 2;' });
    expect(initialState('#code/garbage', fallback, isUserWork)).toMatchObject({ state: { source: 'print 2;' }, from: 'autosave' });
  });

  it('keeps the breakpoints and the picked spell with the autosaved text, and nothing when there are none', () => {
    saveState({ source: 'print 3;' }, '', { breakpoints: [2, 5], spell: 'zap' });
    expect(loadSavedBreakpoints()).toEqual([2, 5]);
    expect(loadSavedSpell()).toBe('zap');
    saveState({ source: 'print 3;' }, '', { spell: null });
    expect(loadSavedBreakpoints()).toEqual([]);
    expect(loadSavedSpell()).toBeNull();
    localStorage.setItem('cantrip.playground.v1', JSON.stringify({ source: 'x', spell: 42 }));
    expect(loadSavedSpell()).toBeNull();
  });
});
