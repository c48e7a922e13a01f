"""COUNT parallel GETs of URL; prints how many returned exactly EXPECTED (a Python bytes escape).

Usage: parallel_fetch.py URL COUNT EXPECTED
"""
import codecs
import concurrent.futures
import sys
import urllib.request

url, count = sys.argv[1], int(sys.argv[2])
expected = codecs.escape_decode(sys.argv[3].encode())[0]


def fetch(_):
    return urllib.request.urlopen(url, timeout=30).read()


with concurrent.futures.ThreadPoolExecutor(max_workers=count) as pool:
    results = list(pool.map(fetch, range(count)))
print(sum(1 for r in results if r == expected))
