/**
 * Monaco's parameter hints for Cantrip: the plain signature-help logic in
 * ../assist/signatureHelp.ts, read from the host-API table on each request.
 */
import type { HostFunctionSpec } from '../../../vm/host.js';
import { signatureHelpAt } from '../assist/signatureHelp.js';
import { LANGUAGE_ID } from '../language/monarch.js';
import { monaco } from './monaco.js';

export function registerSignatureHelp(hosts: () => readonly HostFunctionSpec[]): void {
  monaco.languages.registerSignatureHelpProvider(LANGUAGE_ID, {
    signatureHelpTriggerCharacters: ['(', ','],
    signatureHelpRetriggerCharacters: [')'],
    provideSignatureHelp(model, position) {
      const hint = signatureHelpAt(model.getValue(), model.getOffsetAt(position), hosts());
      if (!hint) return null;
      return {
        value: {
          signatures: [
            {
              label: hint.label,
              documentation: hint.documentation === '' ? undefined : { value: hint.documentation },
              parameters: hint.parameters.map((p) => ({ label: p.label, documentation: p.documentation === '' ? undefined : { value: p.documentation } })),
            },
          ],
          activeSignature: 0,
          activeParameter: Math.min(hint.activeParameter, Math.max(0, hint.parameters.length - 1)),
        },
        dispose() {},
      };
    },
  });
}
