package org.logbase.chaos.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tarjan's strongly connected components, iterative (an explicit stack instead of recursion, so that a
 * chain of 200,000 transactions cannot overflow the thread's stack). Every cycle lies inside one
 * component, so cycle searches only look inside components of two or more nodes; and a cycle made of
 * some edge types only lies inside one component of the subgraph of those types.
 */
final class StronglyConnected {
  private StronglyConnected() {}

  /**
   * The components with at least two nodes of the subgraph of the edge types in typeMask, inside the
   * components given by within (null: the whole graph). Sets component[u] to u's component's position
   * in the returned list, or -1 for nodes in no such component.
   */
  static List<int[]> find(DependencyGraph g, int typeMask, int[] within, int[] component) {
    int n = g.nodes();
    int[] index = new int[n];
    int[] low = new int[n];
    boolean[] onStack = new boolean[n];
    int[] stack = new int[n];
    int[] callNode = new int[n];
    int[] callEdge = new int[n];
    Arrays.fill(index, -1);
    Arrays.fill(component, -1);
    List<int[]> components = new ArrayList<>();
    int counter = 0;
    int top = 0;
    for (int root = 0; root < n; root++) {
      if (index[root] >= 0 || g.first(root) == g.end(root) || (within != null && within[root] < 0)) {
        continue;
      }
      int depth = 0;
      index[root] = low[root] = counter++;
      stack[top++] = root;
      onStack[root] = true;
      callNode[depth] = root;
      callEdge[depth++] = g.first(root);
      while (depth > 0) {
        int u = callNode[depth - 1];
        if (callEdge[depth - 1] < g.end(u)) {
          int at = callEdge[depth - 1]++;
          int v = g.targetAt(at);
          if ((g.typeAt(at).bit() & typeMask) == 0 || (within != null && within[v] != within[u])) {
            continue;
          }
          if (index[v] < 0) {
            index[v] = low[v] = counter++;
            stack[top++] = v;
            onStack[v] = true;
            callNode[depth] = v;
            callEdge[depth++] = g.first(v);
          } else if (onStack[v]) {
            low[u] = Math.min(low[u], index[v]);
          }
          continue;
        }
        depth--;
        if (depth > 0) {
          int parent = callNode[depth - 1];
          low[parent] = Math.min(low[parent], low[u]);
        }
        if (low[u] == index[u]) {
          int bottom = top;
          do {
            onStack[stack[--bottom]] = false;
          } while (stack[bottom] != u);
          if (top - bottom > 1) {
            int[] members = Arrays.copyOfRange(stack, bottom, top);
            for (int m : members) {
              component[m] = components.size();
            }
            components.add(members);
          }
          top = bottom;
        }
      }
    }
    return components;
  }
}
