#!/usr/bin/env bash
# gpu-hmmsearch: hmmsearch with its MSV, bias and Viterbi filters run by
# gpu-msv and gpu-viterbi (GPU when one is visible, else CPU). Takes
# hmmsearch's own command line; the hit tables and the main output equal
# plain hmmsearch's (only the header lines naming files, and the pipeline
# statistics, differ), because the filter survivors are re-searched with
# `hmmsearch -Z <number of targets>`.
#   gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa
# Environment: WARPDP_DEVICE (--device of the filters, default auto),
# WARPDP_THREADS (default: all cores), HMMSEARCH (default: hmmsearch).
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
hmmsearch=${HMMSEARCH:-hmmsearch}
die() { echo "gpu-hmmsearch: error: $*" >&2; exit "${2:-1}"; }

F1=0.02 F2=0.001 nobias=() have_Z=0 use_max=0
args=()
takes_value=" -o -A --tblout --domtblout --pfamtblout -E -T --domE --domT --incE --incT --incdomE --incdomT --F1 --F2 --F3 -Z --domZ --seed --tformat --cpu --textw "
while [ $# -gt 2 ]; do
    opt=$1; shift
    args+=("$opt")
    case "$opt" in
        --max) use_max=1 ;;
        --nobias) nobias=(--nobias) ;;
        -h) exec "$hmmsearch" -h ;;
    esac
    if [[ "$takes_value" == *" $opt "* ]]; then
        [ $# -gt 2 ] || die "option $opt needs a value"
        val=$1; shift
        args+=("$val")
        case "$opt" in
            --F1) F1=$val ;;
            --F2) F2=$val ;;
            -Z) have_Z=1 ;;
            --tformat) [[ "$val" =~ ^(fasta|FASTA)$ ]] || die "--tformat $val: gpu-hmmsearch reads FASTA targets only" ;;
        esac
    fi
done
[ $# -eq 2 ] || die "usage: gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa"
hmm=$1 db=$2
[ "$db" != "-" ] || die "targets must be a file (they are read twice)"
if [ $use_max = 1 ]; then
    # --max turns every filter off: there is nothing to accelerate.
    exec "$hmmsearch" "${args[@]}" "$hmm" "$db"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(--device "${WARPDP_DEVICE:-auto}" --threads "${WARPDP_THREADS:-0}" --quiet)
"$here/gpu-msv" --hmm "$hmm" --db "$db" --F1 "$F1" "${nobias[@]}" "${common[@]}" |
    "$here/gpu-viterbi" --hmm "$hmm" --db "$db" --candidates - --F2 "$F2" \
        --survivors "$tmp/survivors.fa" --stats "$tmp/vit.json" "${common[@]}" > /dev/null
Z=$(sed -n 's/^ *"Z": *\([0-9][0-9]*\).*/\1/p' "$tmp/vit.json")
[ -n "$Z" ] || die "gpu-viterbi did not report the database size" 4
if ! grep -q '^>' "$tmp/survivors.fa"; then
    # hmmsearch refuses an empty file. Any one target will do instead: the
    # filters are exact, so a target that did not survive them here fails
    # them again there and the output is that of a search with no hits.
    gzip -cdf "$db" | awk '/^>/ { if (done) exit; head = $0; next }
                           head != "" && NF { if (!done) print head; print; done = 1 }' > "$tmp/survivors.fa"
fi
zopt=(-Z "$Z"); [ $have_Z = 1 ] && zopt=()
set +e
"$hmmsearch" "${zopt[@]}" "${args[@]}" "$hmm" "$tmp/survivors.fa"
exit $?
