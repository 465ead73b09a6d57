# fwlens: firmware and ACPI analysis toolkit.
#
#   make              build build/fwlens
#   make demo         install missing packages (as root), build the samples, run the main job on them
#   make check        install missing packages (as root), build, run every test; ends "N passed, N failed"
#   make check SANITIZE=1   the same under AddressSanitizer + UndefinedBehaviorSanitizer (build/sanitize/)
#   make bench        speed and memory figures (not part of check)
#   make fuzz FUZZ_SECONDS=N   libFuzzer campaign over every target (clang)
#   make install PREFIX=/usr/local DESTDIR=
#
# Sources are picked up by directory, so a new file needs no Makefile edit. A new command is a
# new tools/cli/cmd-*.c with an FW_COMMAND(...) line; the command table is generated from those.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/fwlens
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions

VERSION := 0.9.0
PKGS := liblzma libbrotlidec zlib libcrypto libxml-2.0 jansson libarchive libpcre2-8 libpci

ifeq ($(SANITIZE),1)
BUILD := build/sanitize
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT := -O1 -g
else
BUILD := build
SAN_FLAGS :=
OPT := -O2 -g
endif

CC ?= cc
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wformat=2 -Wno-format-truncation -Wvla
CPPFLAGS += -D_GNU_SOURCE -DFWLENS_VERSION='"$(VERSION)"' -DFWLENS_DATADIR='"$(DATADIR)"' -I. -I$(BUILD)/gen
CFLAGS += -std=c11 $(OPT) $(WARN) $(SAN_FLAGS) $(PKG_CFLAGS) -MMD -MP
LDFLAGS += $(SAN_FLAGS)
LDLIBS += $(PKG_LIBS) -lpthread

# The layers, bottom up (tools/layers.sh checks their includes): one archive each.
LAYERS := base capsule ifr acpi host query
LAYER_DIR_base := parsers
LAYER_DIR_capsule := capsule
LAYER_DIR_ifr := ifr
LAYER_DIR_acpi := acpi
LAYER_DIR_host := tools/host
LAYER_DIR_query := tools/query
LIB_SRCS := $(sort $(foreach l,$(LAYERS),$(wildcard $(LAYER_DIR_$(l))/*.c)))
CLI_SRCS := $(sort $(wildcard tools/cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
SAMPLE_SRCS := $(sort $(wildcard samples/*.c))
MUTATE_SRCS := $(sort $(wildcard tests/mutate/*.c))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/obj/%.o)
SAMPLE_OBJS := $(SAMPLE_SRCS:%.c=$(BUILD)/obj/%.o)
FUZZ_REPLAY_OBJ := $(BUILD)/obj/tests/fuzz/replay-main.o
FUZZ_REPLAYS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)

# Linked top layer first: a lower layer that calls up (base into acpi, ifr into acpi) fails to link.
LIB := $(foreach l,query host acpi ifr capsule base,$(BUILD)/libfwlens-$(l).a)
# The command line without main(), for fuzz targets that run writers and whole commands.
CLI_LIB := $(BUILD)/libfwlens-cli.a
BIN := $(BUILD)/fwlens
UNIT := $(BUILD)/tests/unit
SAMPLER := $(BUILD)/fwlens-samples
# The sample builder's encoders without main(), for the mutation test's synthetic inputs.
SAMPLE_LIB := $(BUILD)/libfwlens-samples.a
MUTATE := $(BUILD)/tests/mutate

.PHONY: all deps demo check test unit samples bench fuzz install clean man completion deb

all: $(BIN)

$(BUILD)/gen/commands.inc: $(CLI_SRCS) Makefile
	@mkdir -p $(dir $@)
	@sed -n 's/^FW_COMMAND(\([a-z0-9_]*\).*/FW_CMD(\1)/p' $(CLI_SRCS) > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/obj/tools/cli/commands.o: $(BUILD)/gen/commands.inc

# The man pages name the installed data files: rebuild them when PREFIX or DATADIR changes.
$(BUILD)/gen/datadir: FORCE
	@mkdir -p $(dir $@)
	@echo '$(DATADIR)' | cmp -s - $@ 2>/dev/null || echo '$(DATADIR)' > $@
$(BUILD)/obj/tools/cli/cmd-help.o: $(BUILD)/gen/datadir
.PHONY: FORCE
FORCE:

# Data files compiled in as C string literals (the topic rules and their schema).
$(BUILD)/gen/rules-%.inc: tools/query/rules/%
	@mkdir -p $(dir $@)
	@sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
# the built-in rules' SHA-256 (part of every cache key), so a run need not hash them
$(BUILD)/gen/rules-topics.xml.sha256.inc: tools/query/rules/topics.xml
	@mkdir -p $(dir $@)
	@sha256sum $< | sed 's/^\([0-9a-f]\{64\}\).*/"\1"/' > $@
$(BUILD)/obj/tools/query/topics.o: $(BUILD)/gen/rules-topics.xml.inc $(BUILD)/gen/rules-topics.xsd.inc \
	$(BUILD)/gen/rules-topics.xml.sha256.inc

Q := $(if $(V),,@)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

define layer_archive
$(BUILD)/libfwlens-$(1).a: $$(patsubst %.c,$(BUILD)/obj/%.o,$$(sort $$(wildcard $(LAYER_DIR_$(1))/*.c)))
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	$$(Q)$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_archive,$(l))))

$(CLI_LIB): $(filter-out $(BUILD)/obj/tools/cli/main.o,$(CLI_OBJS))
	@mkdir -p $(dir $@)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(UNIT): $(UNIT_OBJS) $(CLI_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(CLI_LIB) $(LIB) $(LDLIBS)

$(SAMPLER): $(SAMPLE_OBJS) $(LIB)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(SAMPLE_OBJS) $(LIB) $(LDLIBS)

$(SAMPLE_LIB): $(filter-out $(BUILD)/obj/samples/fwlens-samples.o,$(SAMPLE_OBJS))
	@mkdir -p $(dir $@)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(MUTATE): $(MUTATE_SRCS:%.c=$(BUILD)/obj/%.o) $(SAMPLE_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(MUTATE_SRCS:%.c=$(BUILD)/obj/%.o) $(SAMPLE_LIB) $(LIB) $(LDLIBS)

# Fuzz targets are linked with a replay main so `make check` can run their seed corpora
# without clang; `make fuzz` rebuilds them with -fsanitize=fuzzer under build/libfuzzer/.
$(BUILD)/fuzz/%: $(BUILD)/obj/tests/fuzz/%.o $(FUZZ_REPLAY_OBJ) $(CLI_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(FUZZ_REPLAY_OBJ) $(CLI_LIB) $(LIB) $(LDLIBS)

# --- set-up -------------------------------------------------------------------------------------
deps:
	@FWLENS_BUILD=$(BUILD) tools/deps.sh

# --- samples ------------------------------------------------------------------------------------
ifneq ($(SAMPLE_SRCS),)
samples: $(SAMPLER) $(BIN)
	@$(SAMPLER) --out $(BUILD)/samples
else
samples:
	@echo "samples: no sample builder yet"
endif

demo: deps
	@$(MAKE) --no-print-directory all samples
	@tools/demo.sh $(BUILD)

# --- tests --------------------------------------------------------------------------------------
check: deps
	@$(MAKE) --no-print-directory all $(UNIT) samples $(FUZZ_REPLAYS) $(MUTATE)
	@FWLENS_BUILD=$(BUILD) tests/run.sh

test: check

unit: $(UNIT)
	@$(UNIT)

# Benchmark helpers (tests/bench/*.c) are standalone programs on the libraries alone.
BENCH_PROGS := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(wildcard tests/bench/*.c))
$(BUILD)/bench/%: tests/bench/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) $(LDLIBS)

# tools/bench.sh also makes the dense 128 MiB images (fwlens-samples --dense) once per build of
# the sample builder, into $(BUILD)/bench/dense-KEY/; make samples and make check never do.
bench: all samples $(BENCH_PROGS)
	@tools/bench.sh $(BUILD)

fuzz:
	@FWLENS_PKGS="$(PKGS)" tools/fuzz.sh $(or $(FUZZ_SECONDS),60)

# --- install ------------------------------------------------------------------------------------
man: $(BIN)
	@mkdir -p $(BUILD)/man
	@$(BIN) help --man-dir $(BUILD)/man

completion: $(BIN)
	@mkdir -p $(BUILD)/completion
	@$(BIN) help --completion bash > $(BUILD)/completion/fwlens.bash
	@$(BIN) help --completion zsh > $(BUILD)/completion/_fwlens

install: all man completion
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/fwlens
	install -m 0644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(BUILD)/completion/fwlens.bash $(DESTDIR)$(BASHCOMPDIR)/fwlens
	install -m 0644 $(BUILD)/completion/_fwlens $(DESTDIR)$(ZSHCOMPDIR)/_fwlens
	install -m 0644 tools/query/rules/topics.xml tools/query/rules/topics.xsd tools/cli/tree.xsd $(DESTDIR)$(DATADIR)/

# Debian package, built from a copy of the committed tree so its outputs stay under build/deb/;
# then checked: the program, a manual page per command, completion, the rules and the doctor
# metrics units must be in it.
deb:
	@rm -rf build/deb && mkdir -p build/deb/src
	@git archive HEAD | tar -x -C build/deb/src
	@cd build/deb/src && dpkg-buildpackage -us -uc -b >../build.log 2>&1 || { tail -n 30 ../build.log; exit 1; }
	@deb=$$(ls build/deb/fwlens_*.deb) && dpkg-deb -c $$deb | awk '{ print $$6 }' > build/deb/contents.txt && \
	for f in ./usr/bin/fwlens ./usr/share/man/man1/fwlens.1.gz ./usr/share/bash-completion/completions/fwlens \
		./usr/share/zsh/vendor-completions/_fwlens ./usr/share/fwlens/topics.xml ./usr/share/fwlens/topics.xsd \
		./usr/share/fwlens/tree.xsd ./usr/share/doc/fwlens/README.md.gz \
		./lib/systemd/system/fwlens-doctor.service ./lib/systemd/system/fwlens-doctor.timer \
		$$(build/deb/src/build/fwlens help | awk '/^commands:/ { f = 1; next } /^$$/ { f = 0 } f && /^  [a-z]/ { printf "./usr/share/man/man1/fwlens-%s.1.gz\n", $$1 }'); do \
		grep -qxF "$$f" build/deb/contents.txt || { echo "deb: $$f is not in $$deb" >&2; exit 1; }; \
	done && echo "$$deb: $$(wc -l < build/deb/contents.txt) paths, program, manual pages, completion, rules and units present"

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
