/**
 * An exchange row answers on node's request without the write and issuance budgets, which are
 * Express middleware: the table may give that way only to reads on the read budget.
 */
import { describe, expect, it } from 'vitest'
import { rowAnswer, type RowParts } from '../../auth-service/http/row-answers.ts'
import type { ExchangeAction } from '../../auth-service/http/action.ts'
import type { Endpoint } from '../../auth-service/http/endpoint.ts'

const action: ExchangeAction = { operation: () => ({}), exchange: () => () => {} }
const parts = { resources: [], ctx: {} } as unknown as RowParts
const row = (e: Partial<Endpoint>): Endpoint =>
  ({ operationId: 'op', method: 'POST', path: '/x', kind: 'read', action, ...e }) as Endpoint

describe('an exchange row', () => {
  it('is built for a read, on the read budget or none', () => {
    expect(rowAnswer(row({ budget: 'reads' }), parts).path).toBe('/x')
    expect(rowAnswer(row({}), parts).method).toBe('POST')
  })

  it('is refused for a write, a credential or an issuance budget', () => {
    expect(() => rowAnswer(row({ kind: 'write' }), parts)).toThrow(/must be a read on the read budget/)
    expect(() => rowAnswer(row({ kind: 'credential' }), parts)).toThrow(/must be a read/)
    expect(() => rowAnswer(row({ budget: 'keys' }), parts)).toThrow(/must be a read/)
  })
})
