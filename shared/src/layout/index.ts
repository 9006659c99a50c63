/** Page furniture shared by the remotes' screens. */
export * from './page-header';
export * from './impersonate-button';
