/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Replays a fuzz target's corpus as an ordinary test (util-linux does the same), so every
 * build, the sanitizer one included, runs the saved inputs.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
        FILE *f = fopen(path, "rb");
        if (!f) {
                perror(path);
                return -1;
        }
        size_t cap = 1 << 16, n = 0;
        uint8_t *buf = malloc(cap);
        size_t k;
        while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
                n += k;
                if (n == cap) {
                        uint8_t *nb = realloc(buf, cap *= 2);
                        if (!nb) {
                                free(buf);
                                buf = NULL;
                        } else
                                buf = nb;
                }
        }
        fclose(f);
        if (!buf)
                return -1;
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
        return 0;
}

int main(int argc, char **argv)
{
        int count = 0;
        for (int i = 1; i < argc; i++) {
                DIR *d = opendir(argv[i]);
                if (!d) {
                        if (replay_file(argv[i]) < 0)
                                return 1;
                        count++;
                        continue;
                }
                struct dirent *de;
                while ((de = readdir(d))) {
                        char path[4096];
                        if (de->d_name[0] == '.')
                                continue;
                        snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
                        if (replay_file(path) < 0) {
                                closedir(d);
                                return 1;
                        }
                        count++;
                }
                closedir(d);
        }
        printf("replayed %d inputs\n", count);
        return count > 0 ? 0 : 1;
}
