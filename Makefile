# hystkit: plain GNU make. `make` builds libhyst, libmech and the programs; `make test`, `make bench`,
# `make demo`, `make install PREFIX=...`. Every target that needs system packages first runs
# scripts/install-deps, which installs only what is missing.
#
# Parallel developers keep separate trees with BUILD=/tmp/x BIN=/tmp/x/bin.

PREFIX ?= /usr/local
SAN    ?= 0

ifeq ($(SAN),1)
  BUILD ?= build-san
  BIN   ?= $(BUILD)/bin
  SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  OPT := -O1 -g
else
  BUILD ?= build
  BIN   ?= bin
  SANFLAGS :=
  OPT := -O2 -g
endif

CC      ?= cc
CPPFLAGS += -Ilibhyst/include -Ilibmech/include -Ilibmech/src -D_GNU_SOURCE -MMD -MP
CFLAGS  ?= $(OPT)
CFLAGS  += -std=c11 -Wall -Wextra -Werror -fPIC $(SANFLAGS)
LDFLAGS += $(SANFLAGS)
# libhyst needs LAPACK, libcsv and cJSON; libmech adds SLICOT (Riccati) and GLPK (the friction LPs).
HYST_LIBS := -llapacke -lopenblas -lcsv -lcjson -lm
HYST_LIBS := -lgsl $(HYST_LIBS)  # GSL: multifit_nlinear for the Bouc-Wen and Iwan fits (docs/fit-families.md)
LDLIBS  := -lslicot -lglpk $(HYST_LIBS)

HYST_SRC  := $(sort $(wildcard libhyst/src/*.c))
MECH_SRC  := $(sort $(wildcard libmech/src/*/*.c))
TOOL_SRC  := $(sort $(wildcard tools/hyst/*.c))
MTOOL_SRC := $(sort $(wildcard tools/mech/*.c))
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRC := $(sort $(wildcard bench/bench_*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
HYST_OBJ  := $(call obj,$(HYST_SRC))
MECH_OBJ  := $(call obj,$(MECH_SRC))
TOOL_OBJ  := $(call obj,$(TOOL_SRC))
MTOOL_OBJ := $(call obj,$(MTOOL_SRC))
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
BENCH_BIN := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))

LIBHYST_A  := $(BUILD)/lib/libhyst.a
LIBHYST_SO := $(BUILD)/lib/libhyst.so
LIBMECH_A  := $(BUILD)/lib/libmech.a
DEPS_STAMP := $(BUILD)/.deps-ok

PROGRAMS := $(BIN)/hyst $(if $(MTOOL_SRC),$(BIN)/mech)

.SECONDARY:
.PHONY: all deps lib test test-unit test-e2e bench demo install uninstall clean check-one fuzz
all: $(DEPS_STAMP) lib $(PROGRAMS)

# Installs missing Debian packages once per build tree (the script itself is quick when nothing is missing).
$(DEPS_STAMP): scripts/install-deps
	@mkdir -p $(dir $@)
	@scripts/install-deps
	@touch $@
deps:
	@scripts/install-deps

lib: $(DEPS_STAMP) $(LIBHYST_A) $(LIBHYST_SO) $(if $(MECH_SRC),$(LIBMECH_A))

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIBHYST_A): $(HYST_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^
$(LIBHYST_SO): $(HYST_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(HYST_LIBS)
$(LIBMECH_A): $(MECH_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/hyst: $(TOOL_OBJ) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(LIBHYST_A) $(HYST_LIBS)
$(BIN)/mech: $(MTOOL_OBJ) $(LIBMECH_A) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(MTOOL_OBJ) $(LIBMECH_A) $(LIBHYST_A) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A) $(LDLIBS) -lcmocka \
	  $(if $(filter test_body_mujoco%,$*),-lmujoco)
# Tests of allocation failures (tests/unit/test_fault_*.c) are linked with the malloc interposer fault_alloc.c,
# built without sanitizer instrumentation: it runs inside AddressSanitizer's own start-up, before its shadow memory.
$(BUILD)/obj/tests/unit/fault_alloc.o: tests/unit/fault_alloc.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(filter-out -fsanitize=%,$(CFLAGS)) -c $< -o $@
$(BUILD)/tests/test_fault_%: $(BUILD)/obj/tests/unit/test_fault_%.o $(BUILD)/obj/tests/unit/fault_alloc.o \
    $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A) $(LDLIBS) -lcmocka -ldl
$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A) $(LDLIBS)

# The test command of the README: unit tests (cmocka) and end-to-end tests of the programs.
test: all $(UNIT_BIN)
	@BUILD=$(BUILD) BIN=$(BIN) scripts/run-tests $(UNIT_BIN)

# One module's unit tests while developing: make check-one T=pwl
check-one: all $(filter $(BUILD)/tests/test_$(T)%,$(UNIT_BIN))
	@BUILD=$(BUILD) BIN=$(BIN) scripts/run-tests --unit-only $(filter $(BUILD)/tests/test_$(T)%,$(UNIT_BIN))

bench: all $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$(basename $$b)"; \
	  OPENBLAS_NUM_THREADS=1 BIN=$(BIN) BUILD=$(BUILD) $$b || exit 1; done

demo: all
	@BIN=$(BIN) scripts/demo

# Fuzzing (docs/fuzzing.md): one libFuzzer binary per fuzz/fuzz_*.c, linked with every library source built by
# clang with the fuzzer's coverage and ASan + UBSan in its own tree; each runs FUZZ_TIME seconds on a temporary
# copy of fuzz/corpus/NAME (the repository's corpus is only read). A crash or failed invariant fails the target.
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 60
FUZZ_BUILD  ?= build-fuzz
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 $(FUZZ_SAN)
FUZZ_SRC    := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN    := $(patsubst fuzz/%.c,$(FUZZ_BUILD)/%,$(FUZZ_SRC))
FUZZ_LIBOBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(HYST_SRC) $(MECH_SRC))

$(FUZZ_BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/fuzz/fuzz_%.o $(FUZZ_LIBOBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
fuzz: $(FUZZ_BIN)
	@FUZZ_TIME=$(FUZZ_TIME) FUZZ_BUILD=$(FUZZ_BUILD) scripts/run-fuzz $(FUZZ_BIN)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/hyst
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIBHYST_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBHYST_SO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 libhyst/include/hyst/*.h $(DESTDIR)$(PREFIX)/include/hyst/
	if [ -n "$(MECH_SRC)" ]; then install -d $(DESTDIR)$(PREFIX)/include/mech && \
	  install -m 644 $(LIBMECH_A) $(DESTDIR)$(PREFIX)/lib/ && \
	  install -m 644 libmech/include/mech/*.h $(DESTDIR)$(PREFIX)/include/mech/; fi
	sed -e 's|@PREFIX@|$(PREFIX)|' scripts/hyst.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/hyst.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hyst $(DESTDIR)$(PREFIX)/bin/mech $(DESTDIR)$(PREFIX)/lib/libhyst.* \
	  $(DESTDIR)$(PREFIX)/lib/libmech.a $(DESTDIR)$(PREFIX)/lib/pkgconfig/hyst.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/hyst $(DESTDIR)$(PREFIX)/include/mech

clean:
	rm -rf build build-san build-fuzz bin out

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
-include $(if $(filter fuzz $(FUZZ_BUILD)/%,$(MAKECMDGOALS)),$(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null))
