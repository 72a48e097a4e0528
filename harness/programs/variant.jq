# harness/report: everything one variant's stages left, as one object.
# jq -n --arg name --argjson present --argjson skipped --argjson boot
#   --argjson tests --argjson failures --argjson soak
{name: $name, present: $present, skipped: $skipped, boot: $boot,
 tests: $tests, failures: $failures,
 soak: [$soak[] | {fs} + ([.stats | split(" ")[] | select(contains("="))
	| split("=") | {(.[0]): (.[1] | tonumber? // .)}] | add)]}
