#!/bin/sh
# Regenerate the committed catalogues from snapshots fetched beforehand (no network here).
# AOS, CONQUEST and OLD_WORLD are checkouts of the commits named below (git archive <commit>).
set -eu
PY=${PY:-.venv/bin/python}
OUT=rulepacks/catalogues
$PY tools/catalogues.py aos "$AOS" --out $OUT/aos-3.yaml --id aos-3 \
  --name "BSData warhammer-age-of-sigmar" --url https://github.com/BSData/warhammer-age-of-sigmar \
  --commit b92ceb9a90090c9dd972a57af472ebcfe34ce96a --date 2022-01-28 \
  --licence "None stated: the repository carries no licence file; only facts (names, points, model counts, keywords, roles) are taken" \
  --season "General's Handbook 2021 (Pitched Battle GHB 2021 profile, data of January 2022)"
$PY tools/catalogues.py conquest "$CONQUEST" --out $OUT/conquest.yaml --id conquest \
  --name "BSData conquest-the-last-argument-of-kings" --url https://github.com/BSData/conquest-the-last-argument-of-kings \
  --commit ee9e2105d8c9539fcd2744c78e2b1f483cfa7f53 --date 2026-05-12 \
  --licence "None stated: the repository carries no licence file; only facts (names, points, model counts, types) are taken" \
  --season "Conquest: The Last Argument of Kings (the full game's points, May 2026)" \
  --note "Only Hundred Kingdoms and Spires are in this data set. First Blood's own army lists may price a regiment differently; check the points against the list you play."
$PY tools/catalogues.py old-world "$OLD_WORLD" --out $OUT/old-world.yaml --id old-world \
  --name "Old World Builder (nthiebes/old-world-builder)" --url https://github.com/nthiebes/old-world-builder \
  --commit 4f78d6b4d292020a56f261b2a094a0e2992e41f8 --date 2026-08-17 \
  --licence "CC BY 4.0 (Creative Commons Attribution 4.0 International), by Nico Thiebes and contributors" \
  --season "The Old World, points of Old World Builder's data of August 2026" \
  --note "Rank-and-file units are priced per model; points is the smallest unit's price."
