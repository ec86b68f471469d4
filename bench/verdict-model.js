// A model, not a measurement: how the adaptive confirmation rule (docs/ci.md, "compare
// gate") ends for a row whose true throughput change is known, each run's log throughput
// drawn with noise SIGMA (so a round's ratio has sigma x sqrt 2). Five planned rounds, then
// two more at a time up to a cap of 100 extra; at each look after the planned rounds:
// regressed / improved when the median per-round ratio is past the 5% threshold and the
// signed-rank p of the ratios' logs (normal approximation here; exact in compare) is within
// the look's share of 2/252; ~ when the 90% order-statistics interval of the ratios lies
// inside +-5% (verdict_confirmed's equivalence rule in compare/analysis/stats.c); otherwise two more
// rounds, and at the cap "cap" (the report's unstable, or ~ when both sides are quiet). It
// leaves out the other metrics and the rules of the planned rounds.
// Usage: node bench/verdict-model.js [COMPARISONS per cell, default 2000]
"use strict";

const THRESHOLD = 0.05, PLANNED = 5, CAP = 100, LOOKS = CAP / 2, BUDGET = 2 / 252;

function randn() {
    let u = 0;
    while (!u) u = Math.random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
}

// [lo, hi]: order statistics k and n+1-k, k the largest with P(Binomial(n, 1/2) < k) <= 5%
function interval(ratios) {
    const s = [...ratios].sort((a, b) => a - b), n = s.length;
    let cdf = 0, k = 0, logp = -n * Math.log(2);
    for (let i = 0; i < n; i++) {
        cdf += Math.exp(logp);
        if (cdf > 0.05) break;
        k = i + 1;
        logp += Math.log(n - i) - Math.log(i + 1);
    }
    return k ? [s[k - 1], s[n - k]] : [-Infinity, Infinity];
}

function erfc(x) { // Numerical Recipes' erfc, |error| < 1.2e-7
    const t = 1 / (1 + 0.5 * Math.abs(x));
    const r = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 +
        t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 +
        t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? r : 2 - r;
}

// two-sided Wilcoxon signed-rank p of d, normal approximation with continuity correction
function signedRankP(d) {
    const a = d.filter((x) => x !== 0).map((x) => [Math.abs(x), x > 0]).sort((p, q) => p[0] - q[0]);
    const n = a.length;
    let w = 0;
    a.forEach((x, i) => { if (x[1]) w += i + 1; });
    const mu = n * (n + 1) / 4, sd = Math.sqrt(n * (n + 1) * (2 * n + 1) / 24);
    return Math.min(1, erfc((Math.abs(w - mu) - 0.5) / sd / Math.SQRT2));
}

function median(v) {
    const s = [...v].sort((a, b) => a - b), n = s.length;
    return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

function comparison(logChange, sigma) {
    const round = () => Math.exp(logChange + sigma * (randn() - randn()));
    const ratios = [];
    for (let i = 0; i < PLANNED; i++) ratios.push(round());
    for (;;) {
        ratios.push(round(), round());
        const n = ratios.length, change = median(ratios) - 1;
        const alpha = n >= PLANNED + CAP ? BUDGET * 0.75 : BUDGET / (4 * LOOKS);
        if (Math.abs(change) >= THRESHOLD && signedRankP(ratios.map(Math.log)) <= alpha)
            return change < 0 ? "regressed" : "improved";
        const [lo, hi] = interval(ratios);
        if (lo - 1 > -THRESHOLD && hi - 1 < THRESHOLD) return "~";
        if (n >= PLANNED + CAP) return "cap";
    }
}

const N = Number(process.argv[2] || 2000);
console.log(`threshold 5%, ${PLANNED} planned rounds + up to ${CAP} extra, ${N} comparisons a cell`);
for (const sigma of [0.05, 0.1]) {
    for (const change of [0, -0.03, -0.05, -0.07, -0.1]) {
        const count = {};
        for (let i = 0; i < N; i++) {
            const v = comparison(Math.log(1 + change), sigma);
            count[v] = (count[v] || 0) + 1;
        }
        const cells = ["regressed", "~", "cap", "improved"].filter((k) => count[k])
            .map((k) => `${k} ${(count[k] / N * 100).toFixed(1)}%`);
        console.log(`per-run sigma ${sigma}, true change ${(change * 100).toFixed(0)}%: ${cells.join(", ")}`);
    }
}
