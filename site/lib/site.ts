export const SITE = {
  name: 'Lattice Research',
  /** The licence (SPDX identifier) of an article that names none; leave it out to state none. */
  license: 'CC-BY-4.0' as string | undefined,
  tagline: 'Research notes from a computing group: systems, statistics, retrieval and learning.',
} as const
