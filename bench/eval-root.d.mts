/** The shared evaluation folder (see eval-root.mjs). */
export declare const evalRoot: string;
