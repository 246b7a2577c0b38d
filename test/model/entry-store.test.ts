import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Entry, type EntryKind, type Outcome, type Role } from '../../src/model/entry.js';
import { EntryStore } from '../../src/model/entry-store.js';
import { IdTable } from '../../src/model/id-table.js';
import { SIZE_KINDS } from '../../src/model/entry-bits.js';
import { addSize, entrySize } from '../../src/model/size/facts.js';
import { appendStore, copyRun, pushCopy } from '../../src/model/store-copy.js';
import { translation } from '../../src/model/store-translation.js';

const KINDS: EntryKind[] = ['header', 'message', 'compaction', 'branch-summary', 'context', 'state', 'unknown'];
const ROLES: Array<Role | undefined> = [undefined, 'user', 'assistant', 'toolResult', 'other'];
const OUTCOMES: Array<Outcome | undefined> = [undefined, 'complete', 'toolUse', 'truncated', 'error', 'aborted', 'injected', 'unknown'];
const id = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.uuid(),
  fc.uuid().map((uuid) => uuid.toUpperCase()),
  fc.stringMatching(/^[0-9a-f]{1,20}$/),
  fc.string({ minLength: 257, maxLength: 300 }),
  fc.constantFrom('toolu_01Ab', 'call_x', 'ÿé', '工具', '😀id', '\u0000a', '\u0001b', '', '0123456789abcdef0123456789abcdef01234'),
);

const draft = fc
  .record({
    kind: fc.constantFrom(...KINDS),
    role: fc.constantFrom(...ROLES),
    outcome: fc.constantFrom(...OUTCOMES),
    id: fc.option(id, { nil: undefined }),
    parentId: fc.oneof(fc.constant(undefined), fc.constant(null), id),
    group: fc.option(id, { nil: undefined }),
    flags: fc.integer({ min: 0, max: 255 }),
    blockCount: fc.nat(70000),
    offset: fc.oneof(fc.nat(2 ** 32 + 5), fc.nat(2 ** 48 - 1)),
    byteLength: fc.nat(2 ** 31),
    calls: fc.option(fc.array(fc.record({ id: fc.option(id, { nil: undefined }), name: fc.option(fc.string(), { nil: undefined }), partial: fc.boolean(), changes: fc.option(fc.array(fc.string(), { minLength: 1 }), { nil: undefined }) }), { maxLength: 3 }), { nil: undefined }),
    results: fc.option(fc.array(fc.record({ callId: fc.option(id, { nil: undefined }), name: fc.option(fc.string(), { nil: undefined }), synthetic: fc.boolean() }), { maxLength: 3 }), { nil: undefined }),
    firstKeptId: fc.option(id, { nil: undefined }),
    // Of several kinds, an entry's size facts take rows of their own (see size-part-rows.ts).
    sizes: fc.array(fc.record({ kind: fc.constantFrom(...SIZE_KINDS), bytes: fc.oneof(fc.nat(3), fc.nat(2 ** 29)) }), { maxLength: 4 }),
  })
  .map((facts) => (index: number) => {
    const entry = new Entry(index, index + 1);
    Object.assign(entry, { kind: facts.kind, role: facts.role, outcome: facts.outcome, id: facts.id, parentId: facts.parentId, group: facts.group, flags: facts.flags });
    Object.assign(entry, { blockCount: facts.blockCount, offset: facts.offset, byteLength: facts.byteLength, pointer: facts.kind === 'message' ? '/message' : '' });
    entry.toolCalls = facts.calls?.map((call, blockIndex) => ({ ...call, partial: call.partial || undefined, pointer: `/message/content/${blockIndex}`, blockIndex }));
    entry.toolResults = facts.results?.map((result) => ({ ...result, pointer: '/message', namePointer: '/message/toolName' }));
    entry.firstKeptId = facts.firstKeptId;
    for (const size of facts.sizes) addSize(entry, size.kind, size.bytes);
    return entry;
  });

const FIELDS = ['index', 'line', 'kind', 'pointer', 'id', 'parentId', 'role', 'group', 'outcome', 'toolCalls', 'toolResults', 'blockCount', 'offset', 'byteLength', 'flags', 'sizeBytes', 'sizeKind', 'sizeParts'] as const;
const RARE = ['logicalParentId', 'serverTools', 'header', 'firstKeptId', 'blankTextBlocks', 'whitespaceTextBlocks'] as const;

/** Every field as readers see it, undefined members left out (as an object literal would). */
const facts = (entry: Entry) => JSON.parse(JSON.stringify(Object.fromEntries([...FIELDS, ...RARE].map((field) => [field, entry[field]]))));

describe('EntryStore', () => {
  it('hands back every field a decoder set, through views, after a trim and after crossing threads', () => {
    fc.assert(
      fc.property(fc.array(draft, { maxLength: 40 }), (makers) => {
        const drafts = makers.map((make, index) => make(index));
        const store = new EntryStore();
        for (const entry of drafts) store.push(entry);
        store.trim();
        const crossed = EntryStore.revive(structuredClone(store));
        drafts.forEach((entry, i) => {
          expect(facts(store.at(i))).toEqual(facts(entry));
          expect(facts(crossed.at(i))).toEqual(facts(entry));
        });
      }),
    );
  });

  it('takes more entries once trimmed, as joining the halves of a file does', () => {
    fc.assert(
      fc.property(fc.array(draft, { minLength: 1, maxLength: 20 }), (makers) => {
        const store = new EntryStore();
        makers.forEach((make, index) => store.push(make(index)));
        store.trim();
        store.reserve(store.length * 2);
        const more = makers.map((make, index) => make(makers.length + index));
        more.forEach((entry) => store.push(entry));
        more.forEach((entry) => expect(facts(store.at(entry.index))).toEqual(facts(entry)));
        for (const entry of more) if (entry.id !== undefined) expect(store.ids.handle(entry.id)).toBe(store.idRef[entry.index]);
      }),
    );
  });

  it("appends another thread's store as if its entries had been pushed here, lines further down", () => {
    fc.assert(
      fc.property(fc.array(draft, { maxLength: 20 }), fc.array(draft, { minLength: 1, maxLength: 20 }), fc.nat(5), (firstMakers, secondMakers, skipped) => {
        const store = new EntryStore();
        firstMakers.forEach((make, index) => store.push(make(index)));
        const other = new EntryStore();
        secondMakers.forEach((make, index) => other.push(make(index)));
        const tail = EntryStore.revive(structuredClone(other));
        const base = firstMakers.length;
        const lines = base + skipped;
        store.reserveFor(tail);
        appendStore(store, tail, lines, translation(tail, store));
        store.trim();
        firstMakers.forEach((make, index) => expect(facts(store.at(index))).toEqual(facts(make(index))));
        secondMakers.forEach((make, index) => {
          const expected = make(base + index);
          // An id that names the entry's own place (#n, in a file replayed in order) moves with it.
          if (expected.linksToPrevious && expected.id === `#${index}`) expected.id = `#${base + index}`;
          expect(facts(store.at(base + index))).toEqual({ ...facts(expected), line: lines + index + 1 });
        });
      }),
    );
  });

  it("keeps each entry's bytes by kind through a repair's copies and a settling that writes them in any order", () => {
    fc.assert(
      fc.property(fc.array(draft, { minLength: 1, maxLength: 20 }), fc.nat(19), (makers, cut) => {
        const drafts = makers.map((make, index) => make(index));
        const store = new EntryStore();
        for (const entry of drafts) store.push(entry);
        const sizes = (from: EntryStore) => Array.from({ length: from.length }, (_, i) => entrySize(from, i));
        const expected = sizes(store);
        const split = cut % drafts.length;
        const copy = new EntryStore(store);
        copyRun(copy, store, 0, split, 1, 0);
        for (let i = split; i < drafts.length; i++) pushCopy(copy, store, i, { line: i + 1, offset: 0, byteLength: 0 });
        expect(sizes(copy)).toEqual(expected);
        store.clearSizes();
        for (let i = drafts.length - 1; i >= 0; i--) store.setSize(i, expected[i]!.parts);
        // setSize names the first largest kind, addSize the first to reach the largest: a tie can differ.
        const settled = sizes(store);
        expect(settled.map(({ bytes, parts }) => ({ bytes, parts }))).toEqual(expected.map(({ bytes, parts }) => ({ bytes, parts })));
        store.setSize(split, expected[split]!.parts);
        expect(sizes(store)).toEqual(settled);
        expect(store.sizeParts.count).toBe(expected.reduce((rows, size) => rows + (Object.keys(size.parts).length > 1 ? Object.keys(size.parts).length : 0), 0));
      }),
    );
  });

  it('lets repair change links and forget an entry through a view', () => {
    const store = new EntryStore();
    const entry = new Entry(0, 1);
    Object.assign(entry, { kind: 'message', role: 'assistant', id: 'a1', parentId: 'p0' });
    entry.toolCalls = [{ id: 't1', name: 'read', pointer: '/message/content/0', blockIndex: 0 }];
    store.push(entry);
    const view = store.at(0);
    view.parentId = null;
    view.parentMissing = true;
    expect([store.at(0).parentId, store.at(0).parentMissing]).toEqual([null, true]);
    view.toolCalls = undefined;
    view.kind = 'unknown';
    expect([store.at(0).toolCalls, store.at(0).kind]).toEqual([undefined, 'unknown']);
    expect(() => (view.toolCalls = [])).toThrow();
  });
});

describe('IdTable', () => {
  it('gives one handle per distinct id and reads each back exactly, Latin-1 or not', () => {
    fc.assert(
      fc.property(fc.array(id, { maxLength: 300 }), (ids) => {
        const table = new IdTable();
        const handles = new Map<string, number>();
        for (const text of ids) {
          const handle = table.intern(text);
          expect(handles.get(text) ?? handle).toBe(handle);
          handles.set(text, handle);
        }
        expect(table.count).toBe(handles.size);
        for (const [text, handle] of handles) {
          expect(table.text(handle)).toBe(text);
          expect(table.handle(text)).toBe(handle);
        }
        expect(table.handle('never interned \u0000')).toBe(-1);
        // Once loaded the index goes; lookups and new ids still work.
        table.trim();
        for (const [text, handle] of handles) expect(table.handle(text)).toBe(handle);
        const added = table.intern('added after trim');
        expect([table.text(added), table.handle('added after trim')]).toEqual(['added after trim', added]);
      }),
    );
  });
});
