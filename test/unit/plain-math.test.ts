import { describe, expect, it } from 'vitest'
import { plainMath } from '../../scripts/builder/render/plain-math.ts'

describe('a formula as plain text', () => {
  it.each([
    ['O(n \\log n)', 'O(n log n)'],
    ['\\frac{1}{k^2}', '1/(k^2)'],
    ['\\varepsilon = 1', 'ε=1'],
    ['\\sqrt{x+1}', '√(x+1)'],
    ['\\hat{\\theta}_i', 'θ_i'],
    ['\\text{if } x', 'if x'],
  ])('%s reads as %s', (tex, plain) => {
    expect(plainMath(tex)).toBe(plain)
  })

  it('keeps no TeX, markup or annotation, even of a formula KaTeX rejects', () => {
    for (const tex of ['\\frac{a}{', '\\href{javascript:alert(1)}{x}', '<script>', '\\unknowncommand x']) {
      const plain = plainMath(tex)
      expect(plain).not.toMatch(/\\(frac|href|unknowncommand)|<script|annotation/)
    }
  })
})
