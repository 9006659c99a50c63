/** The shared contracts, as the gateway imports them (one place to see what it uses). */
export * from '@console/shared/contracts';
