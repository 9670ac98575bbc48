import { describe, expect, test } from 'vitest'
import { toPostgresPlaceholders } from './toPostgresPlaceholders.js'

describe('toPostgresPlaceholders', () => {
  test('numbers placeholders in order', () => {
    expect(toPostgresPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toBe(
      'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
    )
  })

  test('leaves question marks in literals, identifiers and comments alone', () => {
    const sql = `SELECT '?', 'it''s ?', "col?" FROM t -- why?\nWHERE a = ? /* ? */ AND b = ?`
    expect(toPostgresPlaceholders(sql)).toBe(
      `SELECT '?', 'it''s ?', "col?" FROM t -- why?\nWHERE a = $1 /* ? */ AND b = $2`,
    )
  })

  test('keeps a LIKE escape clause intact', () => {
    expect(toPostgresPlaceholders("LOWER(name) LIKE ? ESCAPE '\\' AND x = ?")).toBe(
      "LOWER(name) LIKE $1 ESCAPE '\\' AND x = $2",
    )
  })
})
