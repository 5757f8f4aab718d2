export const SITE = {
  name: 'Lattice Research',
  tagline: 'Research notes from a computing group: systems, statistics, retrieval and learning.',
} as const
