/** The package version, written into `created_by` (a test keeps it equal to package.json's). */
export const VERSION = '0.1.0';
