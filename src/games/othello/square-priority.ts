/**
 * The endgame solver's static order of squares: its list of empties keeps this order, so moves are tried
 * corners first and X-squares last. One source for the TypeScript solver and the WebAssembly kernel (kernel.ts
 * copies it in).
 */
export const SQUARE_PRIORITY: readonly number[] = [
  0, 7, 56, 63, // corners
  2, 5, 16, 23, 40, 47, 58, 61, // A-squares
  3, 4, 24, 31, 32, 39, 59, 60, // B-squares
  18, 21, 42, 45, // inner corners
  19, 20, 26, 29, 34, 37, 43, 44, // inner edges
  10, 11, 12, 13, 17, 22, 25, 30, 33, 38, 41, 46, 50, 51, 52, 53, // second ring
  27, 28, 35, 36, // centre
  1, 6, 8, 15, 48, 55, 57, 62, // C-squares
  9, 14, 49, 54, // X-squares
];
