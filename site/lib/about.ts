import { readFileSync } from 'node:fs'

/** The About page as the build hands it to the site (scripts/builder/about-page.ts). */
export interface AboutPage {
  title: string
  description?: string
  /** The rendered, sanitised body. */
  html: string
}

/** The path of the About page. */
export const ABOUT_PATH = '/about'

let about: AboutPage | null | undefined

/** The About page, or undefined when the content has none (ABOUT_FILE unset). */
export function aboutPage(): AboutPage | undefined {
  if (about === undefined) {
    const file = process.env.ABOUT_FILE
    about = file ? (JSON.parse(readFileSync(file, 'utf8')) as AboutPage) : null
  }
  return about ?? undefined
}
