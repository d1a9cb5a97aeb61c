/** This package's version (its package.json's: a unit test keeps them equal). */
export const toolrailVersion = '0.1.0';
