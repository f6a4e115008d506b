/* Deterministic points files for scripts/throughput.sh (no randomness from the system).
 *   throughput-gen csv N FILE      N lines "x,y" (header "x,y"), x in [0, 390), y in [0, 844),
 *                                  1-3 decimals each ("345.4,705.42"), LF
 *   throughput-gen f64dec N FILE   N float64 pairs: the same kind of short decimals
 *   throughput-gen f64px N FILE    N float64 pairs: pixel positions of a 3x screen (k / 3.0:
 *                                  a third of them whole, the rest 16-17 significant digits)
 * Exit 2 on bad arguments or a write error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A decimal below `limit` with 1-3 fraction digits: its integer scaled value and digits. */
static void decimal(uint64_t *s, uint64_t limit, uint64_t *scaled, int *digits) {
    *digits = 1 + (int)(next(s) % 3);
    uint64_t scale = *digits == 1 ? 10 : *digits == 2 ? 100 : 1000;
    *scaled = next(s) % (limit * scale);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: throughput-gen csv|f64dec|f64px N FILE\n"); return 2; }
    long n = atol(argv[2]);
    FILE *f = fopen(argv[3], "wb");
    if (!f || n < 0) { perror(argv[3]); return 2; }
    uint64_t s = 0x5EED0014ull;
    int ok = 1;
    if (strcmp(argv[1], "csv") == 0) {
        ok = fputs("x,y\n", f) >= 0;
        for (long k = 0; k < n && ok; k++) {
            uint64_t a, b; int da, db;
            decimal(&s, 390, &a, &da);
            decimal(&s, 844, &b, &db);
            uint64_t sa = da == 1 ? 10 : da == 2 ? 100 : 1000, sb = db == 1 ? 10 : db == 2 ? 100 : 1000;
            ok = fprintf(f, "%llu.%0*llu,%llu.%0*llu\n", (unsigned long long)(a / sa), da, (unsigned long long)(a % sa),
                         (unsigned long long)(b / sb), db, (unsigned long long)(b % sb)) > 0;
        }
    } else if (strcmp(argv[1], "f64dec") == 0 || strcmp(argv[1], "f64px") == 0) {
        int px = strcmp(argv[1], "f64px") == 0;
        for (long k = 0; k < n && ok; k++) {
            double xy[2];
            if (px) {
                xy[0] = (double)(next(&s) % 1170) / 3.0;
                xy[1] = (double)(next(&s) % 2532) / 3.0;
            } else {
                for (int c = 0; c < 2; c++) {
                    uint64_t v; int d;
                    decimal(&s, c == 0 ? 390 : 844, &v, &d);
                    xy[c] = (double)v / (d == 1 ? 10.0 : d == 2 ? 100.0 : 1000.0); /* one rounding: as strtod */
                }
            }
            ok = fwrite(xy, sizeof xy, 1, f) == 1; /* little-endian machines only (x86-64, arm64) */
        }
    } else {
        fprintf(stderr, "throughput-gen: unknown kind %s\n", argv[1]);
        return 2;
    }
    if (fclose(f) != 0 || !ok) { perror(argv[3]); return 2; }
    return 0;
}
