/** The site's own client directive (directives/interaction.ts), known to astro check. */
declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean;
  }
}

export {};
