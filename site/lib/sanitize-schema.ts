import { defaultSchema, type Options } from 'rehype-sanitize'

/** MathML that KaTeX emits for screen readers and copy-paste. */
const MATHML = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
]
/** SVG that KaTeX uses to draw radicals, arrows and braces. */
const SVG = ['svg', 'path', 'line', 'g', 'rect']

/**
 * Articles keep every markdown feature, highlighted code and math, but raw HTML in an article can
 * never add a script, an event handler, a frame or a form. Based on GitHub's schema, widened for
 * the classes and inline styles that Shiki and KaTeX write.
 */
export const articleSanitizeSchema: Options = {
  ...defaultSchema,
  // Keep heading ids as written (GitHub's schema prefixes them with "user-content-").
  clobberPrefix: '',
  tagNames: [...(defaultSchema.tagNames ?? []), ...MATHML, ...SVG],
  attributes: {
    ...withoutClassRestrictions(defaultSchema.attributes ?? {}),
    '*': [
      ...(defaultSchema.attributes?.['*'] ?? []),
      'className',
      'class',
      'style',
      'ariaHidden',
      'tabIndex',
      'tabindex',
      'dataLanguage',
    ],
    math: ['xmlns', 'display'],
    annotation: ['encoding'],
    mo: ['stretchy', 'fence', 'separator', 'lspace', 'rspace', 'minsize', 'maxsize'],
    mspace: ['width'],
    mstyle: ['scriptlevel', 'displaystyle', 'mathcolor'],
    mpadded: ['width', 'height', 'depth', 'lspace', 'voffset'],
    mtable: ['rowspacing', 'columnspacing', 'columnalign', 'columnlines'],
    menclose: ['notation'],
    mfrac: ['linethickness'],
    svg: ['xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio'],
    path: ['d'],
    line: ['x1', 'x2', 'y1', 'y2', 'strokeWidth'],
    rect: ['x', 'y', 'width', 'height'],
  },
  protocols: { ...defaultSchema.protocols },
}

type Attributes = NonNullable<Options['attributes']>

/** GitHub's schema allows only a few classes on some tags; Shiki and KaTeX need their own. */
function withoutClassRestrictions(attributes: Attributes): Attributes {
  return Object.fromEntries(
    Object.entries(attributes).map(([tag, list]) => [
      tag,
      list.filter((a) => !(Array.isArray(a) && a[0] === 'className')),
    ]),
  )
}
