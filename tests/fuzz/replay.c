/*
 * tests/fuzz/replay.c: run a libFuzzer target's LLVMFuzzerTestOneInput
 * over files, without libFuzzer, so that any compiler builds it and
 * `make check` replays the corpus and every saved crash input (STYLE 15).
 *
 *   replay-NAME PATH...   each PATH a file, or a folder of files
 *
 * Exits 0 when every input ran (a crash ends the process), 1 when a PATH
 * cannot be read, 2 when no input was found.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		size_t n;
		if (len == cap) {
			unsigned char *nd;
			cap = cap ? cap * 2 : 65536;
			nd = realloc(data, cap);
			if (!nd) {
				fclose(f);
				free(data);
				fprintf(stderr, "%s: out of memory\n", path);
				return -1;
			}
			data = nd;
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(data);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, len);
	free(data);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	int ran = 0, bad = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			char **names = NULL;
			size_t n = 0;
			if (!d) {
				perror(argv[i]);
				bad = 1;
				continue;
			}
			while ((e = readdir(d)) != NULL) {
				char **nn;
				if (e->d_name[0] == '.')
					continue;
				nn = realloc(names, (n + 1) * sizeof(*nn));
				if (!nn)
					break;
				names = nn;
				names[n] = strdup(e->d_name);
				if (names[n])
					n++;
			}
			closedir(d);
			qsort(names, n, sizeof(*names), cmp_names);
			for (size_t k = 0; k < n; k++) {
				char path[4096];
				snprintf(path, sizeof(path), "%s/%s", argv[i], names[k]);
				if (run_file(path) < 0)
					bad = 1;
				else
					ran++;
				free(names[k]);
			}
			free(names);
		} else if (run_file(argv[i]) < 0) {
			bad = 1;
		} else {
			ran++;
		}
	}
	printf("%d inputs replayed\n", ran);
	if (bad)
		return 1;
	return ran ? 0 : 2;
}
