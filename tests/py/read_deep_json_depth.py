"""tests/py/read_deep_json_depth.py REPORT: how deep the tree of a JSON report
goes, following first children (tests/t-read-deep.sh); the JSON parser
recurses, so it runs on a thread with a large stack."""

import json, sys, threading
def depth():
    node, depth = json.load(open(sys.argv[1]))["tree"], 0
    while node["children"]:
        node, depth = node["children"][0], depth + 1
    print(depth)
sys.setrecursionlimit(1000000)
threading.stack_size(1 << 30)
thread = threading.Thread(target=depth)
thread.start()
thread.join()
