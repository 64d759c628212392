#!/usr/bin/env bash
# Looks at a shadow report in a real headless browser (Debian's Chromium, tests/shadow/
# install.sh): DIR/report.html is rendered inside a page whose script reads what the browser
# laid out (the title, the counts, the side-by-side diff's two columns and the colour of a
# highlighted change), and a screenshot is taken (DIR/report.png).
#
#   browser.sh DIR TEXT...    each TEXT must be in the rendered report
#
# Exits 1 naming what is wrong.
set -euo pipefail

dir="$(cd "$1" && pwd)"
shift
[ -s "$dir/report.html" ] || { echo "browser.sh: no $dir/report.html" >&2; exit 1; }
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "browser.sh: no chromium (run tests/shadow/install.sh)" >&2; exit 1; }

check="$dir/report-check.html"
cat >"$check" <<'HTML'
<!DOCTYPE html>
<html><body>
<iframe id="report" src="report.html" style="width:1400px;height:3000px;border:0"></iframe>
<pre id="seen">not loaded</pre>
<script>
document.getElementById("report").onload = function () {
  var d = this.contentDocument, seen = [];
  seen.push("title: " + d.title);
  var summary = d.querySelector("p.summary:nth-of-type(2)");
  seen.push("summary: " + (summary ? summary.innerText.replace(/\s+/g, " ") : "none"));
  var row = d.querySelector("table.diff tbody tr");
  if (row && row.cells.length == 2) {
    seen.push("columns: " + Math.round(row.cells[0].getBoundingClientRect().width) + " " +
      Math.round(row.cells[1].getBoundingClientRect().width));
  } else {
    seen.push("columns: none");
  }
  var mark = d.querySelector("table.diff td.ins em");
  seen.push("highlight: " + (mark ? getComputedStyle(mark).backgroundColor : "none"));
  seen.push("text: " + d.body.innerText.replace(/\s+/g, " "));
  document.getElementById("seen").textContent = seen.join("\n");
};
</script>
</body></html>
HTML
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --allow-file-access-from-files
    --virtual-time-budget=10000)
dom="$("$browser" "${flags[@]}" --dump-dom "file://$check" 2>/dev/null)"
"$browser" "${flags[@]}" --window-size=1400,1800 --screenshot="$dir/report.png" "file://$dir/report.html" \
    >/dev/null 2>&1
rm -f "$check"

seen="$(printf '%s' "$dom" | python3 -c '
import html, re, sys
m = re.search(r"<pre id=\"seen\">(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m.group(1)) if m else "no result")')"
problems=()
grep -q '^title: rmm shadow report$' <<<"$seen" || problems+=("the page's title")
# Both columns of the diff laid out side by side, each a fair part of the width.
read -r left right < <(sed -n 's/^columns: \([0-9]*\) \([0-9]*\)$/\1 \2/p' <<<"$seen") || true
if [ -z "${left:-}" ] || [ "$left" -lt 300 ] || [ "$right" -lt 300 ]; then
    problems+=("the diff's two columns (${left:-none} ${right:-none} px)")
fi
# The candidate's change highlighted: report.html's green.
grep -q '^highlight: rgb(158, 231, 158)$' <<<"$seen" || problems+=("the highlighted change's colour")
text="$(sed -n 's/^text: //p' <<<"$seen")"
for want in "$@"; do
    grep -qF -- "$want" <<<"$text" || problems+=("the text \"$want\"")
done
# A screenshot of a page with content, not a blank one.
size="$(stat -c %s "$dir/report.png" 2>/dev/null || echo 0)"
[ "$size" -gt 20000 ] || problems+=("the screenshot ($size bytes)")

if [ "${#problems[@]}" -gt 0 ]; then
    echo "browser.sh: $dir/report.html as Chromium rendered it lacks: ${problems[*]}" >&2
    printf '%s\n' "$seen" | cut -c1-400 >&2
    exit 1
fi
echo "Chromium rendered $dir/report.html: $(grep '^columns' <<<"$seen"), $(grep '^highlight' <<<"$seen"); screenshot $dir/report.png ($size bytes)"
