import { describe, expect, it } from 'vitest';
import { MessageWriteGuard } from '../../src/hooks/write-gate.js';

// The gate knows no agent's messages: it asks the agent's format (TranscriptFormat.messageShape).
describe('the write gate asks the agent’s format what a message is', () => {
  it("reads OpenClaw's messages as the pi format does: a result for a call never written is blocked", () => {
    const gate = new MessageWriteGuard('openclaw');
    expect(gate.check({ role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'read', arguments: {} }] }, 's')).toBeUndefined();
    expect(gate.check({ role: 'toolResult', toolCallId: 'call_1', content: [{ type: 'text', text: 'ok' }] }, 's')).toBeUndefined();
    expect(gate.check({ role: 'toolResult', toolCallId: 'call_1', content: [{ type: 'text', text: 'again' }] }, 's')).toEqual({ block: true });
    expect(gate.check({ role: 'user', content: '  ' }, 's')).toEqual({ block: true });
  });

  it('is refused for an agent whose format reads no message before it is written, and for an unknown agent', () => {
    expect(() => new MessageWriteGuard('claude-code')).toThrow(/no write gate for claude-code/);
    expect(() => new MessageWriteGuard('nobody')).toThrow(/no write gate for nobody/);
  });
});
