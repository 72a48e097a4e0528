# harness/stages/xbuild build: what one directory's kbuild makefile builds
# under the .config of the build dir it runs in (after modules_prepare, so
# include/config/auto.conf is there). Run as the build user, in the build
# dir, with this file on stdin (the checkout may be private):
#   make -s -f - srctree=SRC dir=fs/xfs ARCH=x86_64 SRCARCH=x86 BITS=64 sg-objs < xbuild-objs.mk
# prints "DIR/ENTRY" per word of obj-y, obj-m and lib-y, a composite object
# (foo.o with foo-y, foo-objs or foo-m) as its parts, a subdirectory as
# "DIR/SUB/": the objects kbuild compiles there, and the subdirectories it
# descends into. The directory's own makefile is the tree's (its Kbuild,
# else its Makefile), read as kbuild's scripts/Makefile.build reads it.
-include include/config/auto.conf
include $(srctree)/scripts/Kbuild.include
src := $(dir)
obj := $(dir)
sg-file := $(if $(wildcard $(srctree)/$(dir)/Kbuild),$(srctree)/$(dir)/Kbuild,$(srctree)/$(dir)/Makefile)
include $(sg-file)
# sg-parts WORDS: each composite object as its parts (nested ones too), any
# other word as it is; a composite that names itself is not expanded again
sg-of = $(strip $(filter-out $(1),$($(1:.o=-objs)) $($(1:.o=-y)) $($(1:.o=-m))))
sg-parts = $(foreach m,$(1),$(if $(and $(filter %.o,$(m)),$(call sg-of,$(m))),$(call sg-parts,$(call sg-of,$(m))),$(m)))
.PHONY: sg-objs
sg-objs:
	@printf '%s\n' $(addprefix $(dir)/,$(sort $(call sg-parts,$(obj-y) $(obj-m) $(lib-y))))
