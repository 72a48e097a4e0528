# harness/lib/settings.sh: the settings a run takes (defaults.sh) checked
# against their [RULE] tags before defaults.sh computes defaults from them.
# Sourced by harness/lib/sg.sh.
# shellcheck shell=sh disable=SC2034 # SG_STAGE is for the stages

# sg_check_settings: every setting of defaults.sh that has a value holds what
# the [RULE] tag of its comment there says it takes (defaults.sh lists the
# rules), or one error line naming it, exit 2. Empty is the default.
sg_check_settings() {
	while IFS= read -r _l; do
		case $_l in ': "${'*) ;; *) continue ;; esac
		_n=${_l#': "${'} _n=${_n%%:=*} _r=${_l#*'}"'*'# ['} _r=${_r%%]*}
		eval "_v=\${$_n-}"
		[ -z "$_v" ] || sg_takes "$_r" "$_v" || sg_die $SG_EXIT_USAGE "$_n=$_v: takes $(echo "$_r" |
			sed 's/^uint/a whole number/; s/[>=][>=]*/ & /; s/^path/an existing file or directory/
				s|^profile|a profile of harness/lib/profiles.tsv|
				s/[.][.][.]$/, space separated/; s/|\([^|]*\)$/ or \1/; s/|/, /g') (harness/lib/defaults.sh)"
	done < "$SG_LIB/defaults.sh"
}

# sg_takes RULE VALUE: VALUE is what RULE takes (sg_check_settings). A whole
# number is decimal, of at most 18 digits (the shell's arithmetic).
sg_takes() {
	case $1 in
	*...)
		set -f; set -- "${1%...}" $2; set +f
		_each=$1; shift
		for _w; do sg_takes "$_each" "$_w" || return 1; done ;;
	uint*)
		case $2 in *[!0-9]*|0?*) return 1 ;; esac
		[ ${#2} -le 18 ] || return 1
		case $1 in
		'uint>0') [ "$2" -gt 0 ] ;;
		'uint>='*) [ "$2" -ge "${1#uint>=}" ] ;;
		esac ;;
	path) [ -e "$2" ] ;;
	profile) awk -v n="$2" '$1 == n { f = 1 } END { exit !f }' "$SG_LIB/profiles.tsv" ;;
	text) ;;
	*'|'*) case "|$1|" in *"|$2|"*) ;; *) return 1 ;; esac ;;
	*) return 1 ;;
	esac
}

# The settings as given are checked before defaults.sh computes defaults
# from them (SOAK_OPS=abc would stop the shell there), as every stage starts:
# named after its file, which is the name sg_stage gives it.
SG_STAGE=${0##*/}
sg_check_settings
# shellcheck source=defaults.sh
. "$SG_LIB/defaults.sh"
export SG_ROOT STABLEGATE_CACHE
