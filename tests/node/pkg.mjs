// The package under test: pkg/ as built by `npm run build` (PKG_DIR picks another build output).
const dir = process.env.PKG_DIR ?? "pkg";
export const lib = await import(new URL(`../../${dir}/node.js`, import.meta.url).href);
