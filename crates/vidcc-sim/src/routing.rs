//! Static shortest-path unicast routing (hop count, as ns-2's default static routing).
//!
//! For every destination in use, a breadth-first search over incoming links gives each node its
//! next link towards it. Ties go to the lower-numbered link, so routes depend only on the
//! topology's construction order.

use crate::topology::{LinkId, LinkSpec, NodeId};
use std::collections::VecDeque;

const NONE: LinkId = LinkId::MAX;

pub struct Routes {
    /// `next[dst][node]`: the link `node` forwards on towards `dst` (`NONE` if unreachable);
    /// empty for nodes that are nobody's destination.
    next: Vec<Vec<LinkId>>,
}

impl Routes {
    pub fn build(node_count: usize, links: &[LinkSpec], destinations: impl IntoIterator<Item = NodeId>) -> Self {
        let mut incoming: Vec<Vec<LinkId>> = vec![Vec::new(); node_count];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to as usize].push(i as LinkId);
        }
        let mut next = vec![Vec::new(); node_count];
        for dst in destinations {
            if !next[dst as usize].is_empty() {
                continue;
            }
            let mut table = vec![NONE; node_count];
            let mut seen = vec![false; node_count];
            let mut frontier = VecDeque::from([dst]);
            seen[dst as usize] = true;
            while let Some(n) = frontier.pop_front() {
                for &li in &incoming[n as usize] {
                    let from = links[li as usize].from as usize;
                    if !seen[from] {
                        seen[from] = true;
                        table[from] = li;
                        frontier.push_back(from as NodeId);
                    }
                }
            }
            next[dst as usize] = table;
        }
        Routes { next }
    }

    #[inline]
    pub fn next_link(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        let l = *self.next.get(dst as usize)?.get(at as usize)?;
        (l != NONE).then_some(l)
    }

    /// The links from `src` to `dst`, or `None` if `dst` is unreachable.
    pub fn path(&self, links: &[LinkSpec], src: NodeId, dst: NodeId) -> Option<Vec<LinkId>> {
        let mut path = Vec::new();
        let mut at = src;
        while at != dst {
            let l = self.next_link(at, dst)?;
            path.push(l);
            at = links[l as usize].to;
            if path.len() > links.len() {
                return None;
            }
        }
        Some(path)
    }
}
